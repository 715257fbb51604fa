"""Developer tools of the repository (not part of the installed package): the headless browser
that checks and screenshots HTML reports."""
