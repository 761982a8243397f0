// One machine word that threads and signal handlers share with C11 atomics: what
// `Synchronization.Atomic` gives, for the platform floors Crease declares (it needs macOS 15 and
// iOS 18). Swift cannot name an `_Atomic` type, so the word lives behind an opaque pointer.
//
// Header only (a module map, no C file to compile): the functions are compiled into the Swift
// code that calls them, so no C object carries its own debug information (valgrind 3.19 cannot
// read the DWARF 5 that clang writes for a C target, and `make bench` runs under valgrind).
#ifndef CREASE_ATOMIC_CELL_H
#define CREASE_ATOMIC_CELL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

// A signal handler may use these only if they never take a lock.
_Static_assert(ATOMIC_POINTER_LOCK_FREE == 2, "a pointer-sized atomic is lock-free");

typedef struct crease_atomic_cell {
  _Atomic intptr_t value;
} crease_atomic_cell;

/// A new cell holding `value`; NULL when no memory is left.
static inline crease_atomic_cell *crease_atomic_cell_create(intptr_t value) {
  crease_atomic_cell *cell = (crease_atomic_cell *)malloc(sizeof *cell);
  if (cell != NULL) atomic_init(&cell->value, value);
  return cell;
}

static inline void crease_atomic_cell_destroy(crease_atomic_cell *cell) { free(cell); }

// Sequentially consistent: every thread sees these operations in one order.

static inline intptr_t crease_atomic_cell_load(crease_atomic_cell *cell) {
  return atomic_load(&cell->value);
}

static inline void crease_atomic_cell_store(crease_atomic_cell *cell, intptr_t value) {
  atomic_store(&cell->value, value);
}

static inline intptr_t crease_atomic_cell_exchange(crease_atomic_cell *cell, intptr_t value) {
  return atomic_exchange(&cell->value, value);
}

/// Adds `delta` and returns the value before.
static inline intptr_t crease_atomic_cell_add(crease_atomic_cell *cell, intptr_t delta) {
  return atomic_fetch_add(&cell->value, delta);
}

/// Stores `desired` if the cell holds `expected`; whether it did.
static inline bool crease_atomic_cell_compare_exchange(
    crease_atomic_cell *cell, intptr_t expected, intptr_t desired) {
  return atomic_compare_exchange_strong(&cell->value, &expected, desired);
}

// Relaxed: atomic, with no order against other memory (counters a watchdog reads).

static inline intptr_t crease_atomic_cell_load_relaxed(crease_atomic_cell *cell) {
  return atomic_load_explicit(&cell->value, memory_order_relaxed);
}

static inline void crease_atomic_cell_store_relaxed(crease_atomic_cell *cell, intptr_t value) {
  atomic_store_explicit(&cell->value, value, memory_order_relaxed);
}

#endif
