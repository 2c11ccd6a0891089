"""The Data sets page's script, which Streamlit runs on every run of the page. The page itself is
:mod:`views.screens.datasets`, imported once per process, so a run never compiles or executes it again."""

from views.screens.datasets import page

page()
