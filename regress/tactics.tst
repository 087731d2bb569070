# Simple tactics the search must get right with enough playouts.
kosumi-param playouts 3000

# Six white stones with one liberty at G6, which would connect them to H7
# (no ladder then): Black captures at G6, or blocks at G7, after which
# White G6 is a self-atari. Both win (the search rates each about 97%
# and picks by visits); anything else lets the stones out.
loadsgf sgf/atari_6_stones.sgf
10 genmove b
#? [G6|G7]
