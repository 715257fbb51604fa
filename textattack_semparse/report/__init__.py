"""``textattack-semparse report``: one shareable page (HTML, or Markdown) from any mix of runs."""
