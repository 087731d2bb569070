//! The SGF reader's and writer's tests: round trips, escapes, old-style
//! identifiers, variations, point and size values, malformed input, and
//! fuzz loops that must never panic.

use super::*;

fn only_game(text: &str) -> GameTree {
    let mut collection = parse(text).unwrap_or_else(|error| panic!("{text:?}: {error}"));
    assert_eq!(collection.games.len(), 1, "{text:?}");
    collection.games.remove(0)
}

fn strings(values: &[&str]) -> Vec<String> {
    values.iter().map(|value| value.to_string()).collect()
}

fn move_of(node: &Node) -> Option<(char, &str)> {
    if let Some(point) = node.first("B") {
        Some(('B', point))
    } else {
        node.first("W").map(|point| ('W', point))
    }
}

#[test]
fn sgf_round_trip_keeps_properties_and_moves() {
    let root = vec![
        ("SZ".to_string(), strings(&["9"])),
        ("KM".to_string(), strings(&["7"])),
        ("PB".to_string(), strings(&["Kosumi ]v1[ \\ test"])),
        ("C".to_string(), strings(&["line one\nline two\\"])),
        ("AB".to_string(), strings(&["aa", "bb:cc"])),
    ];
    let moves: Vec<(char, Option<(usize, usize)>)> = (0..25)
        .map(|turn| {
            let color = if turn % 2 == 0 { 'B' } else { 'W' };
            let point = if turn % 7 == 6 {
                None
            } else {
                Some((turn % 9, (turn * 4) % 9))
            };
            (color, point)
        })
        .collect();

    let text = write_game(&root, &moves);
    let game = only_game(&text);
    let line = game.main_line();
    assert_eq!(line.len(), 1 + moves.len());

    let root_node = line[0];
    assert_eq!(root_node.first("FF"), Some("4"));
    assert_eq!(root_node.first("GM"), Some("1"));
    for (id, values) in &root {
        assert_eq!(root_node.get(id), Some(values.as_slice()), "{id}");
    }
    assert_eq!(board_size(root_node), Ok((9, 9)));

    for (node, &(color, point)) in line[1..].iter().zip(&moves) {
        let (read_color, value) = move_of(node).expect("every node after the root is a move");
        assert_eq!(read_color, color);
        assert_eq!(decode_point(value, 9, 9), Ok(point));
    }
}

#[test]
fn sgf_writer_layout() {
    let root = vec![
        ("SZ".to_string(), strings(&["9"])),
        ("KM".to_string(), strings(&["7"])),
    ];
    let moves = vec![('B', Some((4, 4))), ('W', None)];
    assert_eq!(
        write_game(&root, &moves),
        "(;FF[4]GM[1]SZ[9]KM[7]\n;B[ee];W[])\n"
    );

    let many_moves = vec![('B', None); 25];
    let text = write_game(&[], &many_moves);
    // Root line, then 10 + 10 + 5 moves.
    assert_eq!(text.lines().count(), 4);

    let given_ff = vec![("FF".to_string(), strings(&["4"]))];
    assert_eq!(write_game(&given_ff, &[]), "(;GM[1]FF[4])\n");

    let non_ascii = vec![("PW".to_string(), strings(&["小林"]))];
    assert!(write_game(&non_ascii, &[]).contains("CA[UTF-8]"));
    let no_values = vec![("XX".to_string(), Vec::new())];
    assert_eq!(write_game(&no_values, &[]), "(;FF[4]GM[1]XX[])\n");
}

#[test]
fn sgf_escapes_in_values() {
    let game = only_game(r"(;C[a\]b\\c\d[e]GN[\\])");
    let root = &game.nodes[0];
    assert_eq!(root.first("C"), Some(r"a]b\cd[e"));
    assert_eq!(root.first("GN"), Some("\\"));
}

#[test]
fn sgf_soft_line_breaks_are_removed() {
    for text in [
        "(;C[soft\\\nbreak])",
        "(;C[soft\\\r\nbreak])",
        "(;C[soft\\\n\rbreak])",
        "(;C[soft\\\rbreak])",
    ] {
        assert_eq!(
            only_game(text).nodes[0].first("C"),
            Some("softbreak"),
            "{text:?}"
        );
    }
    let hard = only_game("(;C[hard\nbreak])");
    assert_eq!(hard.nodes[0].first("C"), Some("hard\nbreak"));
}

#[test]
fn sgf_whitespace_between_tokens_and_multiple_values() {
    let game = only_game("\u{feff} \n ( ; AB [aa]\n [bb] \t[cc] ; W [dd] ) \r\n");
    assert_eq!(game.nodes.len(), 2);
    assert_eq!(
        game.nodes[0].get("AB"),
        Some(strings(&["aa", "bb", "cc"]).as_slice())
    );
    assert_eq!(game.nodes[1].first("W"), Some("dd"));
    assert_eq!(game.nodes[1].first("B"), None);
    assert_eq!(game.nodes[1].get("AB"), None);
}

#[test]
fn sgf_old_lower_case_identifiers_keep_upper_case_letters() {
    let game = only_game("(;FF[3]AddBlack[aa]AddWhite[bb]CoPyright[me];Black[cc])");
    let root = &game.nodes[0];
    assert_eq!(root.first("AB"), Some("aa"));
    assert_eq!(root.first("AW"), Some("bb"));
    assert_eq!(root.first("CP"), Some("me"));
    assert_eq!(game.nodes[1].first("B"), Some("cc"));
}

#[test]
fn sgf_repeated_identifiers_in_a_node_are_merged() {
    let game = only_game("(;AB[aa]AW[cc]AB[bb])");
    let root = &game.nodes[0];
    assert_eq!(root.props.len(), 2);
    assert_eq!(root.get("AB"), Some(strings(&["aa", "bb"]).as_slice()));
}

#[test]
fn sgf_variations_and_main_line() {
    let text = "(;SZ[9];B[aa](;W[bb];B[cc](;W[dd])(;W[ee]))(;W[ff]))";
    let game = only_game(text);
    assert_eq!(game.nodes.len(), 2);
    assert_eq!(game.variations.len(), 2);
    assert_eq!(game.variations[1].nodes[0].first("W"), Some("ff"));
    assert_eq!(game.variations[0].variations.len(), 2);

    let main_moves: Vec<_> = game.main_line().into_iter().filter_map(move_of).collect();
    assert_eq!(
        main_moves,
        vec![('B', "aa"), ('W', "bb"), ('B', "cc"), ('W', "dd")]
    );
}

#[test]
fn sgf_collection_with_several_games() {
    let collection = parse("(;GN[one])\n(;GN[two];B[aa])").expect("valid collection");
    let names: Vec<_> = collection
        .games
        .iter()
        .filter_map(|game| game.root()?.first("GN"))
        .collect();
    assert_eq!(names, vec!["one", "two"]);
}

#[test]
fn sgf_nesting_below_the_limit_is_accepted() {
    let depth = MAX_TREE_DEPTH;
    let text = format!("{}{}", "(;B[aa]".repeat(depth), ")".repeat(depth));
    let game = only_game(&text);
    assert_eq!(game.main_line().len(), depth);
}

#[test]
fn sgf_decode_point() {
    assert_eq!(decode_point("ab", 19, 19), Ok(Some((0, 1))));
    assert_eq!(decode_point("ia", 9, 9), Ok(Some((8, 0))));
    assert_eq!(decode_point("", 9, 9), Ok(None));
    assert_eq!(decode_point("tt", 19, 19), Ok(None));
    assert_eq!(decode_point("tt", 9, 9), Ok(None));
    assert_eq!(decode_point("tt", 21, 21), Ok(Some((19, 19))));
    assert_eq!(decode_point("Aa", 30, 30), Ok(Some((26, 0))));
    assert_eq!(decode_point("ZZ", 52, 52), Ok(Some((51, 51))));
    for bad in ["j", "abc", "a1", "ss", "  ", "é"] {
        assert!(
            matches!(decode_point(bad, 9, 19), Err(SgfError::BadPoint { .. })),
            "{bad:?}"
        );
    }
    // Width and height are checked separately: 13 columns, 9 rows.
    assert_eq!(decode_point("ma", 13, 9), Ok(Some((12, 0))));
    assert!(decode_point("am", 13, 9).is_err());
}

#[test]
fn files_under_walks_folders_and_takes_files_as_given() {
    let dir = std::env::temp_dir().join(format!("kosumi-sgf-files-{}", std::process::id()));
    let nested = dir.join("nested").join("2017-05");
    std::fs::create_dir_all(&nested).expect("temp folder");
    for name in ["b.sgf", "a.sgf", "notes.txt"] {
        std::fs::write(dir.join(name), "").expect("temp file");
    }
    std::fs::write(nested.join("c.SGF"), "").expect("temp file");
    let given = dir.join("notes.txt");
    let files = files_under(&[dir.clone(), given.clone()]).expect("listed");
    let expected = vec![
        dir.join("a.sgf"),
        dir.join("b.sgf"),
        nested.join("c.SGF"),
        given,
    ];
    assert_eq!(files, expected);
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

#[test]
fn sgf_encode_point_round_trips() {
    assert_eq!(encode_point(0, 0), "aa");
    assert_eq!(encode_point(0, 1), "ab");
    assert_eq!(encode_point(4, 4), "ee");
    assert_eq!(encode_point(26, 51), "AZ");
    for y in 0..25 {
        for x in 0..25 {
            assert_eq!(decode_point(&encode_point(x, y), 25, 25), Ok(Some((x, y))));
        }
    }
}

#[test]
fn sgf_compressed_point_lists() {
    let points = decode_point_list(&strings(&["aa:bc", "ee"]), 9, 9).expect("valid list");
    assert_eq!(
        points,
        vec![(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2), (4, 4)]
    );
    // Corners in the other order give the same rectangle.
    let reversed = decode_point_list(&strings(&["bc:aa"]), 9, 9).expect("valid list");
    assert_eq!(reversed, points[..6].to_vec());
    assert_eq!(decode_point_list(&strings(&[""]), 9, 9), Ok(Vec::new()));
    for bad in ["aa:jj", "aa:", ":aa", "aa:bb:cc", "tt"] {
        assert!(
            decode_point_list(&strings(&[bad]), 9, 9).is_err(),
            "{bad:?}"
        );
    }
}

#[test]
fn sgf_board_size() {
    let root_of = |text: &str| only_game(text).nodes.remove(0);
    assert_eq!(board_size(&root_of("(;FF[4])")), Ok((19, 19)));
    assert_eq!(board_size(&root_of("(;SZ[9])")), Ok((9, 9)));
    assert_eq!(board_size(&root_of("(;SZ[19:13])")), Ok((19, 13)));
    assert_eq!(board_size(&root_of("(;SZ[ 13 ])")), Ok((13, 13)));
    for bad in ["0", "53", "x", "", "9:", "-1", "9:9:9"] {
        let root = root_of(&format!("(;SZ[{bad}])"));
        assert!(
            matches!(board_size(&root), Err(SgfError::BadBoardSize { .. })),
            "{bad:?}"
        );
    }
}

#[test]
fn sgf_pass_moves_read_as_none() {
    let game = only_game("(;SZ[19];B[];W[tt];B[dd])");
    let moves: Vec<_> = game.nodes[1..]
        .iter()
        .filter_map(move_of)
        .map(|(_, value)| decode_point(value, 19, 19))
        .collect();
    assert_eq!(moves, vec![Ok(None), Ok(None), Ok(Some((3, 3)))]);
}

#[test]
fn sgf_malformed_inputs_are_errors() {
    type IsExpectedError = fn(&SgfError) -> bool;
    let cases: &[(&str, IsExpectedError)] = &[
        ("", |e| matches!(e, SgfError::EmptyCollection)),
        (" \n\t", |e| matches!(e, SgfError::EmptyCollection)),
        ("(;C[never closed)", |e| {
            matches!(e, SgfError::UnclosedValue { .. })
        }),
        (";B[aa])", |e| {
            matches!(e, SgfError::UnexpectedChar { found: ';', .. })
        }),
        ("garbage", |e| {
            matches!(e, SgfError::UnexpectedChar { found: 'g', .. })
        }),
        ("(;B[aa]", |e| {
            matches!(e, SgfError::UnclosedGameTree { .. })
        }),
        ("(;B[aa](;W[bb])", |e| {
            matches!(e, SgfError::UnclosedGameTree { .. })
        }),
        ("(", |e| matches!(e, SgfError::UnexpectedEnd { .. })),
        ("()", |e| {
            matches!(e, SgfError::UnexpectedChar { found: ')', .. })
        }),
        ("(B[aa])", |e| {
            matches!(e, SgfError::UnexpectedChar { found: 'B', .. })
        }),
        ("(;B)", |e| matches!(e, SgfError::MissingValue { .. })),
        ("(;B;W[aa])", |e| matches!(e, SgfError::MissingValue { .. })),
        ("(;black[aa])", |e| {
            matches!(e, SgfError::BadPropertyId { .. })
        }),
        ("(;B[aa]1[x])", |e| {
            matches!(e, SgfError::UnexpectedChar { found: '1', .. })
        }),
        ("(;B[aa](;W[bb]);B[cc])", |e| {
            matches!(e, SgfError::UnexpectedChar { found: ';', .. })
        }),
        ("(;B[aa]))", |e| {
            matches!(e, SgfError::UnexpectedChar { found: ')', .. })
        }),
        ("(;B[aa])x", |e| {
            matches!(e, SgfError::UnexpectedChar { found: 'x', .. })
        }),
        ("(;C[ends in escape\\", |e| {
            matches!(e, SgfError::UnclosedValue { .. })
        }),
    ];
    for (text, is_expected_error) in cases {
        match parse(text) {
            Ok(collection) => panic!("{text:?} parsed as {collection:?}"),
            Err(error) => assert!(is_expected_error(&error), "{text:?} gave {error:?}"),
        }
    }
}

#[test]
fn sgf_deep_nesting_is_an_error_not_a_crash() {
    let unclosed = "(".repeat(10_000);
    assert!(parse(&unclosed).is_err());
    let unclosed_nodes = "(;".repeat(10_000);
    assert!(matches!(
        parse(&unclosed_nodes),
        Err(SgfError::TooDeep { .. })
    ));
    let closed = format!("{}{}", "(;".repeat(10_000), ")".repeat(10_000));
    assert!(matches!(parse(&closed), Err(SgfError::TooDeep { .. })));
}

#[test]
fn sgf_error_messages_say_where() {
    let error = parse("(;FF[4]\n;B[aa]\n;W[bb").expect_err("unclosed value");
    assert_eq!(
        error.to_string(),
        "value of property W starting at line 3, column 3 is never closed: missing ']'"
    );
    let error = parse("(;B[aa]1)").expect_err("stray character");
    assert_eq!(
        error.to_string(),
        "unexpected character '1' at line 1, column 8: expected a property identifier"
    );
    let error = decode_point("zz", 9, 9).expect_err("off board");
    assert_eq!(
        error.to_string(),
        "bad point \"zz\" on a 9x9 board: the point is off the board"
    );
}

/// Tiny deterministic xorshift64 generator, so the fuzz loop needs no
/// extra crate and failures reproduce.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }
}

/// Exercises every helper on whatever parsed, to make sure none of them
/// panics on odd values either.
fn use_everything(collection: &Collection) {
    for game in &collection.games {
        let line = game.main_line();
        if let Some(root) = game.root() {
            let _ = board_size(root);
        }
        for node in line {
            for property in &node.props {
                let _ = decode_point_list(&property.values, 19, 19);
                for value in &property.values {
                    let _ = decode_point(value, 9, 13);
                }
            }
        }
    }
}

#[test]
fn sgf_fuzz_random_bytes_never_panic() {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    for _ in 0..3000 {
        let bytes: Vec<u8> = (0..rng.below(200)).map(|_| rng.next() as u8).collect();
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(collection) = parse(&text) {
            use_everything(&collection);
        }
        // A valid opening gets the random tail past the first token.
        if let Ok(collection) = parse(&format!("(;{text}")) {
            use_everything(&collection);
        }
    }
}

#[test]
fn sgf_fuzz_random_token_soup_never_panics() {
    // Raw bytes rarely get past the first token, so also glue together
    // SGF fragments, which reach every branch of the reader.
    const FRAGMENTS: &[&str] = &[
        "(", ")", ";", "(;", "B", "W", "AB", "SZ", "AddBlack", "b", "[", "]", "[aa]", "[tt]", "[]",
        "[aa:cc]", "[19:13]", "[9]", "\\", "\\]", "\\\n", " ", "\n", "\r\n", ":", "1", "é",
        "\u{feff}",
    ];
    let mut rng = XorShift(0xDEAD_BEEF_CAFE_F00D);
    let mut parsed = 0;
    let mut rejected = 0;
    for _ in 0..5000 {
        let text: String = (0..rng.below(60))
            .map(|_| FRAGMENTS[rng.below(FRAGMENTS.len())])
            .collect();
        match parse(&text) {
            Ok(collection) => {
                parsed += 1;
                use_everything(&collection);
            }
            Err(_) => rejected += 1,
        }
    }
    // Guards the generator: a fuzz loop that only ever fails at the
    // first character would test very little.
    assert!(
        parsed > 0 && rejected > 0,
        "parsed {parsed}, rejected {rejected}"
    );
}

#[test]
fn sgf_fuzz_mutated_records_never_panic() {
    let base = write_game(
        &[
            ("SZ".to_string(), strings(&["19:13"])),
            ("C".to_string(), strings(&["a ] b \\ c"])),
            ("AB".to_string(), strings(&["aa:cc", "dd"])),
        ],
        &[('B', Some((3, 3))), ('W', None), ('B', Some((18, 12)))],
    )
    .into_bytes();
    let mut rng = XorShift(0x0123_4567_89AB_CDEF);
    for _ in 0..3000 {
        let mut bytes = base.clone();
        for _ in 0..1 + rng.below(4) {
            let position = rng.below(bytes.len());
            match rng.below(3) {
                0 => bytes[position] = rng.next() as u8,
                1 => {
                    bytes.remove(position);
                }
                _ => bytes.insert(position, b"()[];\\:"[rng.below(7)]),
            }
            if bytes.is_empty() {
                break;
            }
        }
        if let Ok(collection) = parse(&String::from_utf8_lossy(&bytes)) {
            use_everything(&collection);
        }
    }
}
