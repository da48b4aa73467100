import argparse

from tool import store


def main(argv=None):
    p = argparse.ArgumentParser(prog="tool")
    sub = p.add_subparsers(dest="cmd", required=True)
    ls = sub.add_parser("list", help="list entries")
    ls.add_argument("--limit", type=int, default=20)
    args = p.parse_args(argv)
    if args.cmd == "list":
        for e in store.entries()[: args.limit]:
            print(e)
