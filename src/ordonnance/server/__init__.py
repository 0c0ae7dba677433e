"""The play server (``ordonnance serve``, extra ``web``): every game online, people and bots at one table.

* :mod:`~ordonnance.server.app`: the ASGI application (FastAPI on uvicorn): the HTTP API under
  ``/api``, a WebSocket per table;
* :mod:`~ordonnance.server.tables`: the tables, their moves checked, stored, then sent;
* :mod:`~ordonnance.server.store`: the :class:`~ordonnance.server.store.Store` interface and SQLite;
* :mod:`~ordonnance.server.messages`: every message, a pydantic model with its JSON Schema;
* :mod:`~ordonnance.server.thinking`: bots in worker processes;
* :mod:`~ordonnance.server.tokens`, :mod:`~ordonnance.server.limits`: seats as capabilities,
  and what a client may send;
* :mod:`~ordonnance.server.cli`: ``ordonnance serve``.

:doc:`/server` is the guide; :mod:`ordonnance.client` the Python client.
"""
