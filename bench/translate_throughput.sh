#!/usr/bin/env bash
# Runs the translation-throughput benchmark (see translate_throughput.py).
exec python3 "$(dirname "$0")/translate_throughput.py" "$@"
