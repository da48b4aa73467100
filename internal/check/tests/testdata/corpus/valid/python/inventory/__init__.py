from .stock import Stock, restock

__all__ = ["Stock", "restock"]
