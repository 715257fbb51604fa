"""What is built on the LLM victims (:mod:`textattack_semparse.victims.llm`): table perturbations
whose new header names an LLM victim writes (RobuT's LeTA, Zhao et al. 2023), and the
in-context-learning study of Zhuo et al. (2023)."""
