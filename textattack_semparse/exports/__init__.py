"""The plugin's written sets as 🤗 ``datasets.Dataset``\\ s with a dataset card, on disk or on the Hub."""
