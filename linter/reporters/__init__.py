"""Reporters turn a Report into text; they format and decide nothing."""
