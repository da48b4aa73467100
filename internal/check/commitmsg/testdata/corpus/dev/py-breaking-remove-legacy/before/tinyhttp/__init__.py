from .client import get, post, get_json_legacy

__all__ = ["get", "post", "get_json_legacy"]
