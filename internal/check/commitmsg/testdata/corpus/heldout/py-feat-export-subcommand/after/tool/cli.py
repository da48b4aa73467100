import argparse
import json
import sys

from tool import store


def main(argv=None):
    p = argparse.ArgumentParser(prog="tool")
    sub = p.add_subparsers(dest="cmd", required=True)
    ls = sub.add_parser("list", help="list entries")
    ls.add_argument("--limit", type=int, default=20)
    ex = sub.add_parser("export", help="write all entries as JSON")
    ex.add_argument("--output", "-o", default="-")
    args = p.parse_args(argv)
    if args.cmd == "list":
        for e in store.entries()[: args.limit]:
            print(e)
    elif args.cmd == "export":
        out = sys.stdout if args.output == "-" else open(args.output, "w", encoding="utf-8")
        json.dump(store.entries(), out, indent=2)
