"""The workflows of textattack-semparse, callable from Python: one module each.

Each module has a typed, frozen ``Config`` (what decides the results, checked when it is made)
and ``run(config, context=None)`` returning a typed result. The
:class:`~textattack_semparse.runs.run_context.RunContext` says how the run is computed (serial
or Ray, resuming, progress bars) and where its messages go. The ``textattack-semparse``
commands are thin adapters over these: they turn arguments into a ``Config``, call ``run`` and
print the result.

============================  ==========================================================
module                        workflow
============================  ==========================================================
``attack``                    any attack recipe over a dataset, sharded and resumable
``grammar_attack``            the grammatical-error attacks of Yin et al. (2020)
``augment``                   augmented training files (and Huang et al.'s MDA sampling)
``robustness``                meaning-preserving test sets: build, evaluate, both
``evaluate``                  standard accuracy of a victim
``icl``                       the in-context-learning study of Zhuo et al. (2023)
``test_suite``                distilled test suites (Zhong et al. 2020)
``train``                     a parser trained from scratch, with the papers' defences
``report``                    one report of several runs
``validate``                  people's judgments of rewrites: export, import, judge, agreement
============================  ==========================================================

Nothing here is imported with the package: ``textattack-semparse --help`` stays fast.
"""
