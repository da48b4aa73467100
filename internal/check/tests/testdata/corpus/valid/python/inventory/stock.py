"""Stock levels of a small shop."""

from dataclasses import dataclass, field


@dataclass
class Stock:
    items: dict[str, int] = field(default_factory=dict)

    def add(self, sku: str, count: int) -> None:
        if count <= 0:
            raise ValueError(f"count must be positive, got {count!r}")
        self.items[sku] = self.items.get(sku, 0) + count

    def take(self, sku: str, count: int = 1) -> int:
        left = self.items.get(sku, 0) - count
        if left < 0:
            raise LookupError(f"only {self.items.get(sku, 0)} of {sku} left")
        self.items[sku] = left
        return left


def restock(stock: Stock, order: dict[str, int]) -> Stock:
    for sku, count in order.items():
        stock.add(sku, count)
    return stock
