// One machine word that threads and signal handlers share with C11 atomics: what
// `Synchronization.Atomic` gives, for the platform floors Crease declares (it needs macOS 15 and
// iOS 18). Swift cannot name an `_Atomic` type, so the word lives behind an opaque pointer.
#ifndef CREASE_ATOMIC_CELL_H
#define CREASE_ATOMIC_CELL_H

#include <stdbool.h>
#include <stdint.h>

typedef struct crease_atomic_cell crease_atomic_cell;

/// A new cell holding `value`; NULL when no memory is left.
crease_atomic_cell *crease_atomic_cell_create(intptr_t value);
void crease_atomic_cell_destroy(crease_atomic_cell *cell);

/// Sequentially consistent: every thread sees these operations in one order.
intptr_t crease_atomic_cell_load(crease_atomic_cell *cell);
void crease_atomic_cell_store(crease_atomic_cell *cell, intptr_t value);
intptr_t crease_atomic_cell_exchange(crease_atomic_cell *cell, intptr_t value);
/// Adds `delta` and returns the value before.
intptr_t crease_atomic_cell_add(crease_atomic_cell *cell, intptr_t delta);
/// Stores `desired` if the cell holds `expected`; whether it did.
bool crease_atomic_cell_compare_exchange(crease_atomic_cell *cell, intptr_t expected, intptr_t desired);

/// Relaxed: atomic, with no order against other memory (counters a watchdog reads).
intptr_t crease_atomic_cell_load_relaxed(crease_atomic_cell *cell);
void crease_atomic_cell_store_relaxed(crease_atomic_cell *cell, intptr_t value);

#endif
