# Simple tactics the search must get right with enough playouts.
kosumi-param playouts 3000

# Six white stones with one liberty at G6, which would connect them to H7
# (no ladder then): Black captures.
loadsgf sgf/atari_6_stones.sgf
10 genmove b
#? [G6]
20 gogui-rules_board
#? [!.*OOO.*]
