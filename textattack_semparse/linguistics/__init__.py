"""Offline linguistic machinery: the packaged spaCy pipeline, WordNet 3.0 and Sentence-BERT embeddings."""
