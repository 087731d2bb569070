//! Tests of the GTP input layer: preprocessing, command lines, colours,
//! vertices, numbers, moves and vertex lists, and random input that must
//! never panic.

use super::*;

fn point(col: usize, row: usize) -> Vertex {
    Vertex::Point { col, row }
}

fn command(id: Option<u32>, name: &str, args: &[&str]) -> CommandLine {
    CommandLine {
        id,
        name: name.to_owned(),
        args: args.iter().map(|arg| arg.to_string()).collect(),
    }
}

#[test]
fn preprocess_drops_cr_and_control_characters_but_keeps_lf() {
    assert_eq!(preprocess("play b d4\r\n"), "play b d4\n");
    assert_eq!(preprocess("na\u{0}m\u{7}e\u{1b}\u{7f}"), "name");
    assert_eq!(preprocess("a\nb\r\nc"), "a\nb\nc");
}

#[test]
fn preprocess_turns_tabs_into_spaces() {
    assert_eq!(preprocess("play\tb\t\td4"), "play b  d4");
}

#[test]
fn preprocess_cuts_comments_per_line() {
    assert_eq!(preprocess("name # who are you?"), "name ");
    assert_eq!(preprocess("# only a comment"), "");
    assert_eq!(preprocess("a # x\nb # y\nc"), "a \nb \nc");
    // A tab or CR inside a comment goes with the comment.
    assert_eq!(preprocess("a #\tx\r"), "a ");
}

#[test]
fn preprocess_keeps_non_ascii_text() {
    assert_eq!(preprocess("é\u{85}\u{212A}"), "é\u{85}\u{212A}");
}

#[test]
fn interrupt_comment_is_recognised() {
    assert!(is_interrupt_comment("# interrupt"));
    assert!(is_interrupt_comment("  # INTERRUPT \r\n"));
    assert!(!is_interrupt_comment("#interrupt"));
    assert!(!is_interrupt_comment("# interrupt now"));
    assert!(!is_interrupt_comment("interrupt"));
}

#[test]
fn blank_and_comment_lines_are_ignored() {
    for line in [
        "",
        "\n",
        "   \t ",
        "\r\n",
        "# comment",
        "  # c\r\n",
        "\u{1}",
    ] {
        assert_eq!(parse_command_line(line), None, "{line:?}");
    }
}

#[test]
fn command_lines_split_into_id_name_and_args() {
    assert_eq!(
        parse_command_line("play b D4\n"),
        Some(Ok(command(None, "play", &["b", "D4"])))
    );
    assert_eq!(
        parse_command_line("  12\tgenmove  w  # think\r\n"),
        Some(Ok(command(Some(12), "genmove", &["w"])))
    );
    assert_eq!(
        parse_command_line("0 name"),
        Some(Ok(command(Some(0), "name", &[])))
    );
    assert_eq!(
        parse_command_line("007 name"),
        Some(Ok(command(Some(7), "name", &[])))
    );
    assert_eq!(
        parse_command_line("4294967295 quit"),
        Some(Ok(command(Some(u32::MAX), "quit", &[])))
    );
}

#[test]
fn command_names_keep_their_case() {
    assert_eq!(
        parse_command_line("Play B d4"),
        Some(Ok(command(None, "Play", &["B", "d4"])))
    );
}

#[test]
fn first_word_with_non_digits_is_a_name_not_an_id() {
    assert_eq!(
        parse_command_line("12abc x"),
        Some(Ok(command(None, "12abc", &["x"])))
    );
    assert_eq!(
        parse_command_line("-5 name"),
        Some(Ok(command(None, "-5", &["name"])))
    );
}

#[test]
fn bad_ids_are_errors() {
    assert_eq!(
        parse_command_line("4294967296 name"),
        Some(Err(ParseError::IdOutOfRange))
    );
    assert_eq!(
        parse_command_line("99999999999999999999999 name"),
        Some(Err(ParseError::IdOutOfRange))
    );
    let only_id = parse_command_line(" 42 # nothing else\r\n");
    assert_eq!(
        only_id,
        Some(Err(ParseError::MissingCommandName { id: 42 }))
    );
    assert_eq!(ParseError::MissingCommandName { id: 42 }.id(), Some(42));
    assert_eq!(ParseError::IdOutOfRange.id(), None);
}

#[test]
fn colours_in_every_spelling() {
    for text in ["b", "B", "black", "BLACK", "Black", "bLaCk"] {
        assert_eq!(parse_color(text), Ok(GtpColor::Black), "{text:?}");
    }
    for text in ["w", "W", "white", "WHITE", "White", "wHiTe"] {
        assert_eq!(parse_color(text), Ok(GtpColor::White), "{text:?}");
    }
    for text in [
        "",
        "x",
        "bl",
        "blac",
        "blackk",
        " b",
        "empty",
        "e",
        "blac\u{212A}",
    ] {
        assert_eq!(parse_color(text), Err(ParseError::InvalidColor), "{text:?}");
    }
}

#[test]
fn vertices_map_to_zero_based_coordinates() {
    assert_eq!(parse_vertex("A1", 19, 19), Ok(point(0, 0)));
    assert_eq!(parse_vertex("a1", 19, 19), Ok(point(0, 0)));
    assert_eq!(parse_vertex("D4", 19, 19), Ok(point(3, 3)));
    assert_eq!(parse_vertex("H8", 19, 19), Ok(point(7, 7)));
    assert_eq!(parse_vertex("J9", 19, 19), Ok(point(8, 8)));
    assert_eq!(parse_vertex("j10", 19, 19), Ok(point(8, 9)));
    assert_eq!(parse_vertex("T19", 19, 19), Ok(point(18, 18)));
    assert_eq!(parse_vertex("A01", 19, 19), Ok(point(0, 0)));
    assert_eq!(parse_vertex("Z25", 25, 25), Ok(point(24, 24)));
    assert_eq!(parse_vertex("z25", 25, 25), Ok(point(24, 24)));
}

#[test]
fn pass_in_any_case_and_resign_is_kept_apart() {
    for text in ["pass", "PASS", "Pass", "pAsS"] {
        assert_eq!(parse_vertex(text, 19, 19), Ok(Vertex::Pass), "{text:?}");
    }
    for text in ["resign", "RESIGN", "Resign"] {
        assert_eq!(
            parse_vertex(text, 19, 19),
            Err(ParseError::ResignNotAVertex),
            "{text:?}"
        );
    }
}

#[test]
fn malformed_vertices_are_syntax_errors() {
    for text in [
        "",
        "I5",
        "i5",
        "I1",
        "A",
        "1",
        "AA1",
        "A-1",
        "A+1",
        "A1.0",
        "A 1",
        " A1",
        "A1 ",
        "passs",
        "pas",
        "1A",
        "é1",
        "A١",
        "\u{212A}1",
        "A\u{0}1",
    ] {
        assert_eq!(
            parse_vertex(text, 25, 25),
            Err(ParseError::InvalidVertex),
            "{text:?}"
        );
    }
}

#[test]
fn off_board_vertices_have_their_own_error() {
    for (text, size) in [
        ("A0", 19),
        ("A00", 19),
        ("A20", 19),
        ("T20", 19),
        ("U1", 19),
        ("Z1", 19),
        ("A26", 25),
        ("Z26", 25),
        ("F1", 5),
        ("A99999999999999999999999", 19),
        ("A1", 0),
    ] {
        assert_eq!(
            parse_vertex(text, size, size),
            Err(ParseError::VertexOffBoard),
            "{text:?} on {size}x{size}"
        );
    }
    // Rectangular boards check each side on its own.
    assert_eq!(parse_vertex("C2", 3, 2), Ok(point(2, 1)));
    assert_eq!(parse_vertex("D2", 3, 2), Err(ParseError::VertexOffBoard));
    assert_eq!(parse_vertex("C3", 3, 2), Err(ParseError::VertexOffBoard));
}

#[test]
fn error_texts_are_the_gtp_standard_ones() {
    assert_eq!(ParseError::InvalidColor.to_string(), "syntax error");
    assert_eq!(ParseError::InvalidVertex.to_string(), "syntax error");
    assert_eq!(ParseError::IdOutOfRange.to_string(), "syntax error");
    assert_eq!(ParseError::VertexOffBoard.to_string(), "illegal move");
    assert_eq!(ParseError::DuplicateVertex.to_string(), "bad vertex list");
    assert_eq!(ParseError::BadVertexList.to_string(), "bad vertex list");
}

#[test]
fn vertices_format_in_both_cases() {
    assert_eq!(format_vertex(point(3, 3)), "D4");
    assert_eq!(format_vertex(point(8, 0)), "J1");
    assert_eq!(format_vertex(point(24, 24)), "Z25");
    assert_eq!(format_vertex(Vertex::Pass), "PASS");
    assert_eq!(format_vertex_lower(point(3, 15)), "d16");
    assert_eq!(format_vertex_lower(Vertex::Pass), "pass");
}

#[test]
fn every_vertex_round_trips_on_every_board_size() {
    for size in 1..=25 {
        for col in 0..size {
            for row in 0..size {
                let vertex = point(col, row);
                assert_eq!(parse_vertex(&format_vertex(vertex), size, size), Ok(vertex));
                assert_eq!(
                    parse_vertex(&format_vertex_lower(vertex), size, size),
                    Ok(vertex)
                );
            }
        }
    }
}

#[test]
fn integers_and_their_ranges() {
    assert_eq!(parse_int("0"), Ok(0));
    assert_eq!(parse_int("19"), Ok(19));
    assert_eq!(parse_int("+7"), Ok(7));
    assert_eq!(parse_int("-3"), Ok(-3));
    assert_eq!(parse_int("9223372036854775807"), Ok(i64::MAX));
    for text in [
        "",
        "+",
        "-",
        "7.0",
        "1e3",
        " 7",
        "7 ",
        "0x10",
        "seven",
        "٣",
        "9223372036854775808",
    ] {
        assert_eq!(parse_int(text), Err(ParseError::InvalidInteger), "{text:?}");
    }
    assert_eq!(parse_u32("4294967295"), Ok(u32::MAX));
    assert_eq!(parse_u32("4294967296"), Err(ParseError::InvalidInteger));
    assert_eq!(parse_u32("-1"), Err(ParseError::InvalidInteger));
    assert_eq!(parse_usize("361"), Ok(361));
    assert_eq!(parse_usize("-1"), Err(ParseError::InvalidInteger));
}

#[test]
fn floats_accept_integers_decimals_and_exponents() {
    for (text, expected) in [
        ("7", 7.0),
        ("7.0", 7.0),
        ("6.5", 6.5),
        ("-3", -3.0),
        ("-0.5", -0.5),
        ("+0.5", 0.5),
        (".5", 0.5),
        ("5.", 5.0),
        ("1e3", 1000.0),
        ("1.5E-1", 0.15),
    ] {
        assert_eq!(parse_float(text), Ok(expected), "{text:?}");
    }
}

#[test]
fn floats_reject_garbage_and_non_finite_values() {
    for text in [
        "", ".", "-", "+", "e3", "1e", "1e+", "nan", "NaN", "inf", "-inf", "infinity", "1e999",
        "7,5", "7.5.1", " 7", "7 ", "0x10", "seven", "٣", "7\u{0}",
    ] {
        assert_eq!(parse_float(text), Err(ParseError::InvalidFloat), "{text:?}");
    }
}

#[test]
fn moves_pair_colour_and_vertex() {
    assert_eq!(
        parse_move("b", "D4", 19, 19),
        Ok(GtpMove {
            color: GtpColor::Black,
            vertex: point(3, 3)
        })
    );
    assert_eq!(
        parse_move("WHITE", "pass", 9, 9),
        Ok(GtpMove {
            color: GtpColor::White,
            vertex: Vertex::Pass
        })
    );
    assert_eq!(parse_move("x", "D4", 19, 19), Err(ParseError::InvalidColor));
    assert_eq!(
        parse_move("b", "I4", 19, 19),
        Err(ParseError::InvalidVertex)
    );
    assert_eq!(
        parse_move("b", "K10", 9, 9),
        Err(ParseError::VertexOffBoard)
    );
}

#[test]
fn vertex_lists_for_free_handicap() {
    assert_eq!(
        parse_vertex_list(&["D4", "q16", "D16"], 19, 19),
        Ok(vec![point(3, 3), point(15, 15), point(3, 15)])
    );
    let owned: Vec<String> = vec!["A1".into(), "B1".into()];
    assert_eq!(
        parse_vertex_list(&owned, 2, 2),
        Ok(vec![point(0, 0), point(1, 0)])
    );
    assert_eq!(
        parse_vertex_list(&["D4", "Q16", "d4"], 19, 19),
        Err(ParseError::DuplicateVertex)
    );
    assert_eq!(
        parse_vertex_list(&["D4", "pass"], 19, 19),
        Err(ParseError::BadVertexList)
    );
    assert_eq!(
        parse_vertex_list(&["D4", "T20"], 19, 19),
        Err(ParseError::BadVertexList)
    );
    assert_eq!(
        parse_vertex_list(&["D4", "I4"], 19, 19),
        Err(ParseError::InvalidVertex)
    );
    let no_words: [&str; 0] = [];
    assert_eq!(
        parse_vertex_list(&no_words, 19, 19),
        Err(ParseError::BadVertexList)
    );
    assert_eq!(
        parse_vertex_list(&["D4"], 19, 19),
        Err(ParseError::BadVertexList)
    );
    // A full 2x2 board leaves no point free: one stone too many.
    assert_eq!(
        parse_vertex_list(&["A1", "B1", "A2", "B2"], 2, 2),
        Err(ParseError::BadVertexList)
    );
}

/// Tiny xorshift64 so the random-input test needs no crate.
struct XorShift64(u64);

impl XorShift64 {
    fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound as u64) as usize
    }
}

/// Random text from single characters (including multi-byte and
/// case-folding traps) and whole tokens. Half the inputs are mostly
/// space-separated tokens, so the success paths get exercised too.
fn random_input(rng: &mut XorShift64) -> String {
    const CHARS: &[char] = &[
        'a', 'b', 'e', 'i', 'p', 's', 'w', 'z', 'A', 'B', 'E', 'I', 'J', 'T', 'Z', '0', '1', '9',
        ' ', ' ', '\t', '\r', '\n', '#', '.', '-', '+', '\0', '\u{7f}', '\u{85}', 'é', '\u{212A}',
        '\u{130}', '\u{17F}', '٣', '\u{a0}', '😀',
    ];
    const TOKENS: &[&str] = &[
        "play",
        "b",
        "w",
        "black",
        "white",
        "A1",
        "b2",
        "C3",
        "D4",
        "z25",
        "i5",
        "pass",
        "resign",
        "7",
        "1e3",
        "nan",
        "inf",
        "4294967296",
        "18446744073709551616",
        "-0.5",
        "# interrupt",
        "blac",
        "12",
    ];
    let token_heavy = rng.below(2) == 0;
    let length = rng.below(24);
    let mut text = String::new();
    for _ in 0..length {
        if token_heavy && rng.below(8) != 0 {
            text.push_str(TOKENS[rng.below(TOKENS.len())]);
            text.push(' ');
        } else if rng.below(4) == 0 {
            text.push_str(TOKENS[rng.below(TOKENS.len())]);
        } else {
            text.push(CHARS[rng.below(CHARS.len())]);
        }
    }
    text
}

/// Runs every argument parser on `text`, checking what success promises.
fn parse_as_every_argument(text: &str, width: usize, height: usize) {
    let _ = parse_color(text);
    if let Ok(Vertex::Point { col, row }) = parse_vertex(text, width, height) {
        assert!(col < width && row < height, "{text:?}");
    }
    let _ = parse_int(text);
    let _ = parse_u32(text);
    let _ = parse_usize(text);
    if let Ok(value) = parse_float(text) {
        assert!(value.is_finite(), "{text:?}");
    }
}

#[test]
fn random_inputs_never_panic() {
    let mut rng = XorShift64(0x9E37_79B9_7F4A_7C15);
    for _ in 0..20_000 {
        let text = random_input(&mut rng);
        let width = rng.below(30);
        let height = rng.below(30);

        let _ = is_interrupt_comment(&text);
        let cleaned = preprocess(&text);
        assert!(
            !cleaned.contains(['\r', '\t', '#']),
            "{text:?} -> {cleaned:?}"
        );
        // The raw text as one argument, then the words the command
        // layer would really hand over.
        parse_as_every_argument(&text, width, height);
        let Some(Ok(line)) = parse_command_line(&text) else {
            continue;
        };
        assert!(!line.name.is_empty());
        assert!(line.args.iter().all(|arg| !arg.is_empty()));
        for arg in &line.args {
            parse_as_every_argument(arg, width, height);
        }
        if let [color, vertex, ..] = line.args.as_slice() {
            let _ = parse_move(color, vertex, width, height);
        }
        if let Ok(vertices) = parse_vertex_list(&line.args, width, height) {
            assert_eq!(vertices.len(), line.args.len());
        }
    }
}
