# Simple tactics the search must get right with enough playouts.
kosumi-param playouts 3000

# Six white stones with one liberty at G6: Black captures.
loadsgf sgf/atari_6_stones.sgf
10 genmove b
#? [G6]
20 gogui-rules_board
#? [!.*O.*]
