"""The hostile suite: every game's public names, actions, saves, views and command line under attack."""
