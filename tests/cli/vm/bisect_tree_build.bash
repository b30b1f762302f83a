#!/bin/bash
# The "build" of a bisect_tree commit (tests/cli/vm/bisect_tree.bash): the
# image TREE_IMAGES maps this commit's kN to, copied to bzImage.
set -euo pipefail
: "${TREE_IMAGES:?the test sets TREE_IMAGES}"
k=$(cat image)
[ "$k" != fail ] || { echo "this commit does not build" >&2; exit 2; }
cp "$(awk -F'\t' -v k="$k" '$1 == k { print $2 }' "$TREE_IMAGES")" bzImage
