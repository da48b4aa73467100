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
