from .client import get, post

__all__ = ["get", "post"]
