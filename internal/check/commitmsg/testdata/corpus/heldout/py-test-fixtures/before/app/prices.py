def apply_discount(price, pct):
    return round(price * (100 - pct) / 100, 2)
