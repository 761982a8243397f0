#!/usr/bin/env bash
# Type-checks every module of the package against the Apple platform floors Package.swift
# declares, on Linux, where no Apple SDK exists: is any standard-library API used newer than the
# floor (`UInt128` or `Atomic` in a package that says macOS 13)?
#
# How: the toolchain's standard-library interfaces carry the Apple availability of every
# declaration. Copied under an Apple target's name, they rebuild for that target (their own
# availability checks off, `@backDeployed` attributes dropped, since those need bodies the
# interface lacks); glibc's headers stand in for Darwin's, with cdefs.h's `__nonnull`, which
# clang predefines for Apple targets, redefined as glibc means it. Each module is then compiled
# to a module for that target, in dependency order, with availability checked as the real SDK
# checks it. What this cannot see: Darwin-only code under `#if canImport(Darwin)` (it takes the
# Glibc branch) and C functions' own availability (POSIX calls old enough for every floor).
#
# Usage: Scripts/check-availability.sh [work folder]   (default .build/availability)
set -euo pipefail

work=${1:-.build/availability}
toolchain_lib=$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")/lib/swift
linux=$toolchain_lib/linux

# The floors, read from Package.swift so they cannot drift apart; a platform maps to the target
# triple the interfaces are copied for.
floor() {
  sed -n "s/.*\.$1(\.v\([0-9_]*\)).*/\1/p" Package.swift | head -n 1 | tr _ .
}
# macOS and iOS (x86_64, the simulator for the phone: the interfaces are x86_64's, where
# `Float80` exists, and availability does not depend on the architecture). The tvOS and watchOS
# floors are the same Swift release's as these (5.7) and visionOS 1 came later, so these two
# cover them; AVAILABILITY_TARGETS names other triples, e.g.
# "x86_64-apple-tvos$(floor tvOS)-simulator x86_64-apple-watchos$(floor watchOS)-simulator".
# AVAILABILITY_PLATFORMS=macOS checks the macOS floor alone (CI's quick pass: iOS 16 shipped
# the same Swift runtime as macOS 13, so the standard library's availability is the same).
targets=()
for platform in ${AVAILABILITY_PLATFORMS:-macOS iOS}; do
  case $platform in
  macOS) targets+=("x86_64-apple-macosx$(floor macOS)") ;;
  iOS) targets+=("x86_64-apple-ios$(floor iOS)-simulator") ;;
  *) echo "availability: unknown platform '$platform' (macOS or iOS)" >&2 && exit 64 ;;
  esac
done
[ -n "${AVAILABILITY_TARGETS:-}" ] && read -ra targets <<<"$AVAILABILITY_TARGETS"

# Modules in dependency order, each with its sources' folder.
modules=(
  Crease CreaseRecording CreaseRecordingFile CreaseLocking CreaseTesting CreaseSynth CreaseSystem
  CreaseJSON CreaseConfiguration CreaseIO CreaseReports CreaseImport CreaseScenarioFiles CreaseCLI crease
)

# glibc's headers in one folder with Swift's module map for them, the way Swift's driver lays
# them out on Linux.
headers=$work/include
rm -rf "$headers" && mkdir -p "$headers/sys"
for entry in /usr/include/* /usr/include/x86_64-linux-gnu/*; do
  name=$(basename "$entry")
  [ "$name" = sys ] || [ -e "$headers/$name" ] || ln -s "$entry" "$headers/"
done
for entry in /usr/include/x86_64-linux-gnu/sys/*; do ln -s "$entry" "$headers/sys/"; done
rm "$headers/sys/cdefs.h"
sed 's/^#ifndef __nonnull$/#undef __nonnull\n#ifndef __nonnull/' \
  /usr/include/x86_64-linux-gnu/sys/cdefs.h >"$headers/sys/cdefs.h"
cp "$linux/x86_64/glibc.modulemap" "$headers/module.modulemap"
# tgmath.h refuses the float types clang declares for Apple targets; Crease uses no macro of it.
sed 's|^#include <tgmath.h>||' "$linux/x86_64/SwiftGlibc.h" >"$headers/SwiftGlibc.h"
json_c=$(pkg-config --cflags-only-I json-c | sed 's/-I//g')

failed=0
for target in "${targets[@]}"; do
  platform=${target#*-apple-}
  os=${platform%%[0-9]*}
  [ "$os" = macosx ] && os=macos
  suffix=${platform##*[0-9]}
  interfaces=$work/$target/interfaces
  modules_out=$work/$target/modules
  rm -rf "$modules_out" && mkdir -p "$interfaces" "$modules_out"
  for library in Swift _Concurrency _StringProcessing SwiftOnoneSupport Glibc; do
    mkdir -p "$interfaces/$library.swiftmodule"
    sed -e "s/-target x86_64-unknown-linux-gnu/-target $target/" \
      -e '3s/$/ -disable-availability-checking/' -e '/^ *@backDeployed(/d' \
      "$linux/$library.swiftmodule/x86_64-unknown-linux-gnu.private.swiftinterface" \
      >"$interfaces/$library.swiftmodule/x86_64-apple-$os$suffix.swiftinterface"
  done
  for module in "${modules[@]}"; do
    sources=$(find "Sources/$module" -name '*.swift' | sort)
    kind=-parse-as-library
    [ "$module" = crease ] && kind=
    common=(-target "$target" -module-name "$module" $kind -package-name crease -swift-version 6
      -resource-dir "$toolchain_lib" -I "$interfaces" -I "$headers" -I "$modules_out"
      -I Sources/CJSONC -Xcc -I"$json_c"
      -I Sources/CAtomicCell -I Sources/CRenameExchange -module-cache-path "$work/$target/cache")
    # The module its dependents import, from declarations only; then every body type-checked.
    swiftc "${common[@]}" -emit-module -Xfrontend -experimental-skip-all-function-bodies \
      -emit-module-path "$modules_out/$module.swiftmodule" $sources >/dev/null 2>&1 || true
    # One compiler job a file, every job to its end: after a file with an error, one job checks
    # no other file. "broken standard library" (a pointer conversion's intrinsic that the rebuilt
    # interfaces do not give the compiler) is the interfaces' gap, not this code's, and the rest
    # of its file is still checked; every other error fails the check.
    output=$(swiftc "${common[@]}" -typecheck -disable-batch-mode -continue-building-after-errors \
      -j 2 $sources 2>&1 || true)
    errors=$(grep -E '^[^ ]+: error:' <<<"$output" | grep -v 'broken standard library' | sort -u || true)
    if [ -n "$errors" ]; then
      echo "$target $module:" && head -n 40 <<<"$errors"
      failed=1
    fi
  done
  echo "availability: $target $([ $failed = 0 ] && echo ok || echo FAILED)"
done
exit $failed
