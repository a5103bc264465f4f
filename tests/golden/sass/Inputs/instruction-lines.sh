#!/bin/sh
# Prints the instruction lines of a SASS listing in a normal form: the /*addr*/ column and the
# instruction text, without the /* 0x... */ encoding words, with runs of blanks made one.
# Data directives (.byte, .word, ...) and lines without an address are dropped.
sed -e 's|/\* 0x[0-9a-f]* \*/||g' -e 's/[[:space:]][[:space:]]*/ /g' -e 's/^ //' -e 's/ $//' "$@" |
  grep -E '^/\*[0-9a-f]+\*/ [^.]'
