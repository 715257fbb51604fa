"""Registered perturbations applied to dataset examples (:mod:`.example_perturber`), and the
perturbed utterances they give (:mod:`.perturbed_utterance`)."""
