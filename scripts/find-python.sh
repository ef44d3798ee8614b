#!/usr/bin/env bash
# Prints the path of a working Python >= 3.12, or explains on stderr and fails.
# pyodide-build needs 3.12+. pyenv shims can exist yet fail when their version
# is not selected, so every candidate is run, not just looked up.
works() { "$1" -c 'import sys, venv; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; }
candidates=("${PYTHON:-}" python3.14 python3.13 python3.12 python3 python)
if command -v pyenv >/dev/null 2>&1; then
  root=$(pyenv root 2>/dev/null)
  for bin in $(ls -d "$root"/versions/3.1[2-9]*/bin/python3 2>/dev/null | sort -rV); do candidates+=("$bin"); done
fi
for c in /usr/local/bin/python3.1[2-9] /usr/bin/python3.1[2-9]; do candidates+=("$c"); done
for c in "${candidates[@]}"; do
  [ -n "$c" ] || continue
  path=$(command -v "$c" 2>/dev/null) || continue
  if works "$path"; then
    "$path" -c 'import sys; print(sys.executable)'
    exit 0
  fi
done
echo "Nessun Python >= 3.12 funzionante trovato (serve a pyodide-build)." >&2
echo "Installane uno (es. 'pyenv install 3.12' o 'apt-get install python3.12') oppure indica il percorso con PYTHON=/percorso/python3.12." >&2
exit 1
