class Cart:
    def __init__(self):
        self.lines = []

    def add(self, sku, price):
        self.lines.append((sku, price))

    def total(self):
        return sum(price for _, price in self.lines)
