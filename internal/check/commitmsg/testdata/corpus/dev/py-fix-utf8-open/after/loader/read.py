import csv


def read_rows(path):
    # The default encoding is the locale's: cp1252 on Windows broke on
    # accented names in exports.
    with open(path, newline="", encoding="utf-8-sig") as f:
        return list(csv.DictReader(f))
