"""Offline linguistic machinery: the packaged spaCy pipeline and WordNet 3.0."""
