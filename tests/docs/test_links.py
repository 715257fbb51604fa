"""README is the package index's page too, so it links to the documentation by absolute URL (a wheel
user has no docs/ folder); every such link must name a page the repository has."""

from __future__ import annotations

import re

from tests.docs.doc_blocks import REPO_ROOT
from textattack_semparse.project import documentation_url

RAW_FILES = "https://raw.githubusercontent.com/textattack-semparse/textattack-semparse/main/"


def test_readme_links_the_documentation_absolutely_and_every_page_exists():
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert not re.findall(r"\]\((?:\./)?docs/", readme), "README links docs/ relatively; a wheel user has no docs/"
    base = documentation_url()
    assert base.startswith("https://"), "pyproject's [project.urls] Documentation is what help texts link to"
    pages = re.findall(re.escape(base) + r"/([\w./-]+?)(?:#[\w-]+)?\)", readme)
    files = re.findall(re.escape(RAW_FILES) + r"([\w./-]+)\)", readme)
    assert len(pages) >= 10 and files
    missing = [page for page in pages if not (REPO_ROOT / "docs" / page).is_file()]
    missing += [path for path in files if not (REPO_ROOT / path).is_file()]
    assert not missing, f"README links to files the repository does not have: {missing}"
