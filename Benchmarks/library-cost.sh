#!/bin/bash
# What an app pays per event for the library, built as an app builds it: instructions (callgrind,
# 200,000 events minus 100,000, less the cost of making the events) and heap allocations (memcheck, 60,000 minus 20,000) of
# Examples/LibraryCost, a package depending on a tagged copy of Crease. Usage: library-cost.sh BINARY
set -euo pipefail
binary=$1
command -v valgrind >/dev/null || { echo "(install valgrind to measure the library's cost per event)"; exit 0; }
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$binary" "$1" "$2" 2>&1 >/dev/null |
    awk '/Collected/ { gsub(",", "", $4); print $4 }'
}
allocations() {
  valgrind --tool=memcheck "$binary" "$1" "$2" 2>&1 >/dev/null |
    awk '/total heap usage/ { gsub(",", "", $5); print $5 }'
}
echo "the library in a depending package's plain release build (Examples/LibraryCost):"
# Making the events is not the library's work: its own cost is taken off.
making=$(( $(instructions make 200000) - $(instructions make 100000) ))
madeAllocations=$(( $(allocations make 60000) - $(allocations make 20000) ))
for mode in session engine recorder; do
  small=$(instructions $mode 100000)
  large=$((  $(instructions $mode 200000) - making ))
  few=$(allocations $mode 20000)
  many=$(( $(allocations $mode 60000) - madeAllocations ))
  printf "  %-22s %6d instructions an event, %s heap allocations an event\n" \
    "$(case $mode in session) echo CreaseSession;; engine) echo 'Engine<Pipeline>';; *) echo TraceRecorder;; esac)" \
    $(((large - small) / 100000)) "$(awk -v a="$few" -v b="$many" 'BEGIN { printf "%.2f", (b - a) / 40000 }')"
done
