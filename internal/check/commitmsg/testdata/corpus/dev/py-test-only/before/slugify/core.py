import re
import unicodedata

_NON_WORD = re.compile(r"[^\w\s-]")
_SEPARATORS = re.compile(r"[-\s]+")


def slugify(text: str, max_length: int = 0) -> str:
    """Return a URL slug for text."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = _NON_WORD.sub("", text).strip().lower()
    slug = _SEPARATORS.sub("-", text)
    if max_length:
        slug = slug[:max_length].rstrip("-")
    return slug
