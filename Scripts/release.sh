#!/usr/bin/env bash
# `make release`: tags this commit with the version `crease --version` prints, so that an app's
# `.package(url: …, from: "<version>")` resolves, after checking that it would work.
#
# Refuses (exit 1, nothing tagged): changes not committed; a tag of this version on another
# commit; a README or example package that depends on another version. Then: the app example
# against a tagged copy of the files (`make example`), the annotated tag, and the example again
# against a clone of this repository at the tag, which is what an app resolves. If that last
# check fails, the tag is removed. Pushing the tag is the releaser's step.
set -euo pipefail

version=$(sed -n 's/.*static let creaseVersion = "\(.*\)"/\1/p' Sources/CreaseConfiguration/Provenance.swift)
refuse() {
  echo "release: $1" >&2
  exit 1
}

[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || refuse "version '$version' is not major.minor.patch"
[ -z "$(git status --porcelain)" ] || refuse "the tree has changes not committed; commit them first"
head=$(git rev-parse HEAD)
if tagged=$(git rev-parse -q --verify "refs/tags/$version^{commit}"); then
  [ "$tagged" = "$head" ] || refuse "tag $version exists on ${tagged:0:12}, not on this commit; raise the version"
fi
for file in README.md Examples/*/Package.swift; do
  if grep -o 'from: "[0-9.]*"' "$file" | grep -vq "from: \"$version\""; then
    refuse "$file depends on another version than $version"
  fi
done

make --no-print-directory example
if [ -z "${tagged:-}" ]; then
  git tag -a "$version" -m "Crease $version"
  echo "release: tagged ${head:0:12} as $version"
fi
if ! make --no-print-directory example CREASE_FROM_TAG=1; then
  [ -n "${tagged:-}" ] || git tag -d "$version" >/dev/null
  refuse "the example does not build against a clone at tag $version; tag removed"
fi
echo "release: $version resolves from a clone of this repository; push it with: git push origin $version"
