"""The app as ``scripts/serve.py`` (``make run``, the Dockerfile) serves it: the pages of ``app.py``,
plus the one HTTP route a waiting phone asks instead of rerunning its page (:mod:`views.room.poll`,
declared in :mod:`views.room.routes`). ``streamlit run server.py`` runs it the same way;
``streamlit run app.py`` still serves every page, with phones falling back to their slower poll."""

import streamlit as st

from views.room.routes import ROUTES

app = st.App("app.py", routes=ROUTES)
