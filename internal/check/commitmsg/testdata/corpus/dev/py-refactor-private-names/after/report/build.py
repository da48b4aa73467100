from datetime import date


def _format_day(d: date) -> str:
    return d.strftime("%Y-%m-%d")


def _to_rows(items):
    return [(i["name"], i["qty"], i["price"]) for i in items]


def build_report(items, day: date) -> str:
    lines = [f"Report {_format_day(day)}"]
    for name, qty, price in _to_rows(items):
        lines.append(f"{name:20} {qty:5} {price:10.2f}")
    return "\n".join(lines)
