# Simple tactics the search must get right with enough playouts.
kosumi-param playouts 3000

# Six white stones with one liberty at G6, which would connect them to H7
# (no ladder then): Black captures at G6, or blocks at G7 or H6, after
# which White G6 still leaves the stones a single liberty (H6 or G7). All
# three win (the search rates each about 97% and picks by visits; under
# the dynamic komi, which asks for the biggest capture, H6 ahead);
# anything else lets the stones out.
loadsgf sgf/atari_6_stones.sgf
10 genmove b
#? [G6|G7|H6]
