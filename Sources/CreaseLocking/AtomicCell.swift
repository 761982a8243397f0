import CAtomicCell

/// One `Int` that threads and signal handlers share without a lock: a handler's record of a
/// signal, a count of handlers running, a counter a watchdog reads.
///
/// What `Synchronization.Atomic` gives, which needs macOS 15 and iOS 18: C11 atomics on a word
/// that C owns (Swift cannot name an `_Atomic` type). Lock-free on every platform Crease builds
/// for (the C file asserts it), so a signal handler may use every operation. A pointer goes in
/// and out as its bit pattern (`Int(bitPattern:)`, `UnsafeMutablePointer(bitPattern:)`).
package final class AtomicCell: @unchecked Sendable {
  // Safe to share: `cell` is set once in init and freed in deinit, and every access to the
  // word it points to is one of C's atomic operations.
  private let cell: UnsafeMutablePointer<crease_atomic_cell>

  /// A cell holding `value`.
  package init(_ value: Int) {
    guard let cell = crease_atomic_cell_create(value) else {
      fatalError("no memory left for an atomic cell")
    }
    self.cell = cell
  }

  deinit { crease_atomic_cell_destroy(cell) }

  /// The value, in the one order every thread sees.
  package func load() -> Int { crease_atomic_cell_load(cell) }

  /// Makes `value` the value, in the one order every thread sees.
  package func store(_ value: Int) { crease_atomic_cell_store(cell, value) }

  /// Makes `value` the value; the one it replaced.
  package func exchange(_ value: Int) -> Int { crease_atomic_cell_exchange(cell, value) }

  /// Adds `delta`; the value before.
  @discardableResult
  package func add(_ delta: Int) -> Int { crease_atomic_cell_add(cell, delta) }

  /// Makes `desired` the value if it is `expected`; whether it was.
  package func compareExchange(expected: Int, desired: Int) -> Bool {
    crease_atomic_cell_compare_exchange(cell, expected, desired)
  }

  /// The value, atomically but in no order against other memory: for a reading that only
  /// reports.
  package func relaxedLoad() -> Int { crease_atomic_cell_load_relaxed(cell) }

  /// Makes `value` the value, atomically but in no order against other memory.
  package func relaxedStore(_ value: Int) { crease_atomic_cell_store_relaxed(cell, value) }
}
