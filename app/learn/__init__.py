"""Learn by playing: a guided first game per game (tutorials), and hints against the computer.

A tutorial is data beside its game (`games/<game>/tutorial.json`): a seed, options, a scripted
opening and 8-15 steps, each the learner's expected move and the script's replies. Nothing is
stored: the state at step n is the replay of seed + script up to it, through the rule module.
"""
