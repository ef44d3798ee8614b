"""An nginx configuration for the built site, with the headers of site/_headers.

    python scripts/nginx_conf.py [--dir site] [--base /laboratori/] [--port 8080] [--no-headers]
                                 [--standalone TMPDIR]

Prints a `server { … }` block to put in nginx's `http { … }` (Debian: /etc/nginx/sites-enabled/): the site
served under --base, the types Pyodide's files need (Debian's mime.types has no .mjs, the runtime's
module), the site's own 404 page, and every header of site/_headers on the paths it names (add_header
… always, so the 404 page has them too). --no-headers leaves them out, as a host that ignores _headers
does (GitHub Pages). --standalone TMPDIR prints a whole nginx.conf that an unprivileged user runs in the
foreground, its pid, logs and temporary files in TMPDIR (the tests do:
`nginx -p TMPDIR -c TMPDIR/nginx.conf`). Build the site with SITE_URL set to the address it is served at.
"""

import argparse
import sys
from pathlib import Path

from serve import read_headers

ROOT = Path(__file__).resolve().parent.parent
# the types Debian's mime.types lacks: Pyodide's module, the labs' wheels
TYPES = {"text/javascript": ["mjs"], "application/zip": ["whl"]}


def quote(value):
    """value as one nginx string (double quotes, with \\ and " escaped)."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def header_rules(directory):
    """[(site path prefix, [(name, value)])] from _headers, for the patterns nginx can place: a path that
    ends in «*» (a prefix) or none (that path alone, its prefix ending in «$»)."""
    rules = []
    for pattern, headers in read_headers(directory):
        path = pattern.pattern.removesuffix("$").replace(".*", "*").replace("\\", "")
        if "*" in path.rstrip("*"):
            raise ValueError(f"_headers: {path}: nginx non ha un «*» a metà percorso")
        rules.append((path.rstrip("*") if path.endswith("*") else path + "$", headers))
    return rules


def locations(directory, base, headers=True):
    """The location blocks: one per _headers rule, each with its headers and those of the broader rules
    that also match its paths (nginx applies one location's add_header, never two)."""
    rules = header_rules(directory) if headers else []
    if not any(prefix == "/" for prefix, _ in rules):
        rules.append(("/", []))
    blocks = [] if base == "/" else ["    location / {\n        return 404;\n    }"]  # nothing outside base
    for prefix, own in rules:
        exact = prefix.endswith("$")
        path = prefix.removesuffix("$")
        merged = [
            *(
                h
                for other, hs in rules
                if not other.endswith("$") and other != prefix and path.startswith(other)
                for h in hs
            ),
            *own,
        ]
        lines = [
            f"    location {'= ' if exact else ''}{base.rstrip('/')}{path} {{",
            f"        alias {directory.resolve()}{path};",
        ]
        lines += [f"        add_header {name} {quote(value)} always;" for name, value in merged]
        lines.append("    }")
        blocks.append("\n".join(lines))
    return blocks


def server_block(directory, base="/", port=8080, headers=True):
    base = "/" + base.strip("/") + "/" if base.strip("/") else "/"
    types = "\n".join(f"        {name} {' '.join(ext)};" for name, ext in TYPES.items())
    return f"""server {{
    listen 127.0.0.1:{port};
    root {directory.resolve()};
    index index.html;
    # Pyodide's module is .mjs; its wheels are zip files
    include /etc/nginx/mime.types;
    types {{
{types}
    }}
    charset utf-8;
    charset_types text/css text/javascript application/javascript application/json;
    error_page 404 {base}404.html;
{chr(10).join(locations(directory, base, headers))}
}}
"""


def standalone(server, tmp):
    """A whole nginx.conf around server, for a process of an unprivileged user kept in the foreground."""
    tmp = Path(tmp).resolve()
    temp = "\n".join(
        f"    {kind}_temp_path {tmp}/{kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return f"""daemon off;
master_process off;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
{temp}
    {server.replace(chr(10), chr(10) + "    ").rstrip()}
}}
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", default=str(ROOT / "site"))
    parser.add_argument("--base", default="/", help="il sotto-percorso del sito, per esempio /laboratori/")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--no-headers", action="store_true", help="senza gli header di _headers (come GitHub Pages)")
    parser.add_argument("--standalone", metavar="TMPDIR", help="un nginx.conf intero, con pid e log in TMPDIR")
    args = parser.parse_args()
    directory = Path(args.dir)
    if not (directory / "index.html").exists():
        sys.exit(f"{directory} non contiene il sito: esegui prima 'make build'")
    server = server_block(directory, args.base, args.port, headers=not args.no_headers)
    print(standalone(server, args.standalone) if args.standalone else server, end="")


if __name__ == "__main__":
    main()
