#include "CAtomicCell.h"

#include <stdatomic.h>
#include <stdlib.h>

// A signal handler may use these only if they never take a lock.
_Static_assert(ATOMIC_POINTER_LOCK_FREE == 2, "a pointer-sized atomic is lock-free");

struct crease_atomic_cell {
  _Atomic intptr_t value;
};

crease_atomic_cell *crease_atomic_cell_create(intptr_t value) {
  crease_atomic_cell *cell = malloc(sizeof *cell);
  if (cell != NULL) atomic_init(&cell->value, value);
  return cell;
}

void crease_atomic_cell_destroy(crease_atomic_cell *cell) { free(cell); }

intptr_t crease_atomic_cell_load(crease_atomic_cell *cell) { return atomic_load(&cell->value); }

void crease_atomic_cell_store(crease_atomic_cell *cell, intptr_t value) {
  atomic_store(&cell->value, value);
}

intptr_t crease_atomic_cell_exchange(crease_atomic_cell *cell, intptr_t value) {
  return atomic_exchange(&cell->value, value);
}

intptr_t crease_atomic_cell_add(crease_atomic_cell *cell, intptr_t delta) {
  return atomic_fetch_add(&cell->value, delta);
}

bool crease_atomic_cell_compare_exchange(crease_atomic_cell *cell, intptr_t expected, intptr_t desired) {
  return atomic_compare_exchange_strong(&cell->value, &expected, desired);
}

intptr_t crease_atomic_cell_load_relaxed(crease_atomic_cell *cell) {
  return atomic_load_explicit(&cell->value, memory_order_relaxed);
}

void crease_atomic_cell_store_relaxed(crease_atomic_cell *cell, intptr_t value) {
  atomic_store_explicit(&cell->value, value, memory_order_relaxed);
}
