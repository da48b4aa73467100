from dataclasses import dataclass, field
from decimal import Decimal


@dataclass
class Line:
    sku: str
    qty: int
    price: Decimal


@dataclass
class Cart:
    lines: list[Line] = field(default_factory=list)

    def add(self, sku: str, qty: int, price: Decimal) -> None:
        self.lines.append(Line(sku, qty, price))

    def total(self) -> Decimal:
        return sum((l.price * l.qty for l in self.lines), Decimal(0))

    def remove(self, sku: str) -> bool:
        """Drop every line of sku; return whether any was there."""
        before = len(self.lines)
        self.lines = [l for l in self.lines if l.sku != sku]
        return len(self.lines) != before

    def to_dict(self) -> dict:
        return {
            "lines": [{"sku": l.sku, "qty": l.qty, "price": str(l.price)} for l in self.lines],
            "total": str(self.total()),
        }
