#!/bin/sh
# The seeding story of "Pro iOS Persistence", chapter 4, with graphstore: a seed built from
# text, checked before release, a new seed with the fourth book, the update between them
# made by diff --script, and that update applied to a user's store that has books of its
# own: the fourth book appears once, the user's book stays, a second run changes nothing.
#
# Run from anywhere: sh examples/BookStore/seeds/story.sh   (GRAPHSTORE names the binary)
set -e
here=$(cd "$(dirname "$0")" && pwd)
model="$here/../BookStore.xcdatamodeld"
gs="${GRAPHSTORE:-graphstore} --no-rc"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cp "$here"/*.csv "$here/release.checks" .
keys="--key Book=title,BookCategory=name"

echo "== 1. The first seed, from text"
$gs --write --model "$model" --create seed-1.sqlite \
    -c "import BookCategory categories.csv" -c "import Book books.csv $keys"
$gs verify --model "$model" --expect release.checks seed-1.sqlite > /dev/null
echo "verify: fit to ship"

echo "== 2. The next seed: the fourth book"
cp seed-1.sqlite seed-2.sqlite
$gs --write --model "$model" seed-2.sqlite -c "import Book fourth-book.csv $keys"
$gs verify --model "$model" --expect release.checks seed-2.sqlite > /dev/null
echo "verify: fit to ship"

echo "== 3. The update between them"
$gs diff --model "$model" seed-1.sqlite seed-2.sqlite $keys --script update-2.graphstore
grep -v '^#' update-2.graphstore

echo "== 4. A user's store: the first seed and a book of their own"
cp seed-1.sqlite user.sqlite
$gs --write --model "$model" user.sqlite -c "insert Book title=\"My own book\" price=30" -c save > /dev/null

echo "== 5. The update, applied twice"
$gs --write --model "$model" user.sqlite -c "seed apply update-2.graphstore" -c "seed apply update-2.graphstore" -c "seed status"
$gs --model "$model" -list user.sqlite -c "fetch Book sort title"
echo "== 6. What still tells the user's store from the new seed: only the user's book"
$gs diff --model "$model" -list seed-2.sqlite user.sqlite $keys 2>&1
