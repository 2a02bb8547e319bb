#!/bin/sh
# demo.sh: what `make demo` runs.  It grows with the pipeline; today it
# validates the shipped example files and shows their canonical forms.
set -eu
cd "$(dirname "$0")"
PATH="$PWD/bin:$PATH"

echo "== ovb-fmt: validating the shipped examples"
for f in t/data/example.*; do
	ovb-fmt -v "$f"
done
echo
echo "== the Sharc RSL example, rewritten as ovb-apps"
ovb-fmt -c t/data/example.rsl
echo
echo "== the example cluster in canonical form"
ovb-fmt -c t/data/example.cluster
