"""Collection of the package's doctests: the play server's modules need the ``web`` extra."""

try:
    import fastapi  # noqa: F401
except ImportError:  # without the extra (CI's first stage) their doctests are not collected
    collect_ignore_glob = ["src/ordonnance/server/app.py", "src/ordonnance/server/messages.py",
                           "src/ordonnance/server/schemas.py", "src/ordonnance/server/tables.py",
                           "src/ordonnance/server/review.py", "src/ordonnance/server/pages.py"]  # fmt: skip

try:
    import psycopg  # noqa: F401
except ImportError:  # PostgreSQL's store needs psycopg (the web extra)
    collect_ignore_glob = [*globals().get("collect_ignore_glob", []), "src/ordonnance/server/postgres.py"]
