//! A picture as a list of plain shapes (rectangles, lines, text), so that one drawing of a
//! puzzle can be written as SVG ([`Drawing::to_svg`]) and placed on a PDF page
//! ([`super::pdf`]) alike. Coordinates grow right and down, as in SVG; text is placed by
//! its baseline.

use std::fmt::Write;

/// An RGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Color(pub u8, pub u8, pub u8);

impl Color {
    /// Black, of grid lines, digits and black cells.
    pub const BLACK: Color = Color(0, 0, 0);
    /// White, of the cells to fill.
    pub const WHITE: Color = Color(0xff, 0xff, 0xff);

    /// `#rrggbb`.
    fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }

    /// The components from 0 to 1.
    pub fn unit(self) -> [f32; 3] {
        [self.0, self.1, self.2].map(|c| f32::from(c) / 255.0)
    }
}

/// How a line or an outline is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stroke {
    /// The line's colour.
    pub color: Color,
    /// The line's width, in the drawing's units.
    pub width: f64,
    /// Dash and gap lengths, for a dashed line.
    pub dash: Option<(f64, f64)>,
}

impl Stroke {
    /// A solid line.
    pub const fn solid(color: Color, width: f64) -> Stroke {
        Stroke { color, width, dash: None }
    }
}

/// How a text is set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Font {
    /// The font size, in the drawing's units.
    pub size: f64,
    /// Bold or regular.
    pub bold: bool,
    /// The text's colour.
    pub color: Color,
}

impl Font {
    /// Regular black text of `size`.
    pub const fn plain(size: f64) -> Font {
        Font { size, bold: false, color: Color::BLACK }
    }
}

/// Where a text's `x` is: its start or its middle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// `x` is where the text starts.
    Start,
    /// `x` is the text's middle.
    Middle,
}

/// One shape.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A rectangle, filled, outlined or both.
    Rect {
        /// The SVG class, naming the rectangle's role (`cell`, `border`, `label`).
        class: &'static str,
        /// The left edge.
        x: f64,
        /// The top edge.
        y: f64,
        /// The width.
        width: f64,
        /// The height.
        height: f64,
        /// The fill, if filled.
        fill: Option<Color>,
        /// The outline, if outlined.
        stroke: Option<Stroke>,
    },
    /// A straight line.
    Line {
        /// One end.
        from: (f64, f64),
        /// The other end.
        to: (f64, f64),
        /// How it is drawn.
        stroke: Stroke,
    },
    /// A line of text.
    Text {
        /// Where the text starts or its middle lies, as `anchor` says.
        x: f64,
        /// The baseline.
        y: f64,
        /// The font size.
        size: f64,
        /// What `x` is.
        anchor: Anchor,
        /// Bold or regular.
        bold: bool,
        /// The text's colour.
        color: Color,
        /// Printable ASCII only (what the PDF's standard font can show); see [`ascii`].
        text: String,
    },
}

/// A picture of `width` by `height` units.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Drawing {
    /// The width, in units (points on a PDF page).
    pub width: f64,
    /// The height.
    pub height: f64,
    /// The shapes, drawn in order (later ones on top).
    pub shapes: Vec<Shape>,
}

/// Where a centred digit's baseline lies below its centre, in font sizes.
pub const CENTRE_TO_BASELINE: f64 = 0.35;

impl Drawing {
    /// An empty drawing of `width` by `height`.
    pub fn new(width: f64, height: f64) -> Drawing {
        Drawing { width, height, shapes: Vec::new() }
    }

    /// Adds `shape` on top of the others.
    pub fn push(&mut self, shape: Shape) {
        self.shapes.push(shape);
    }

    /// Text whose middle is at `(x, centre)`, vertically centred on `centre`.
    pub fn centred_text(&mut self, (x, centre): (f64, f64), font: Font, text: String) {
        let Font { size, bold, color } = font;
        let y = centre + CENTRE_TO_BASELINE * size;
        self.shapes.push(Shape::Text { x, y, size, anchor: Anchor::Middle, bold, color, text });
    }

    /// Text starting at `(x, baseline)`.
    pub fn text(&mut self, (x, y): (f64, f64), font: Font, text: String) {
        let Font { size, bold, color } = font;
        self.shapes.push(Shape::Text { x, y, size, anchor: Anchor::Start, bold, color, text });
    }

    /// Adds `other`'s shapes scaled by `scale` and moved to `(dx, dy)`.
    pub fn place(&mut self, other: &Drawing, (dx, dy): (f64, f64), scale: f64) {
        let point = |(x, y): (f64, f64)| (dx + x * scale, dy + y * scale);
        let stroke = |s: Stroke| Stroke {
            width: s.width * scale,
            dash: s.dash.map(|(on, off)| (on * scale, off * scale)),
            ..s
        };
        for shape in &other.shapes {
            let placed = match shape.clone() {
                Shape::Rect { class, x, y, width, height, fill, stroke: outline } => {
                    let (x, y) = point((x, y));
                    let (width, height) = (width * scale, height * scale);
                    Shape::Rect { class, x, y, width, height, fill, stroke: outline.map(stroke) }
                }
                Shape::Line { from, to, stroke: line } => {
                    Shape::Line { from: point(from), to: point(to), stroke: stroke(line) }
                }
                Shape::Text { x, y, size, anchor, bold, color, text } => {
                    let (x, y) = point((x, y));
                    Shape::Text { x, y, size: size * scale, anchor, bold, color, text }
                }
            };
            self.shapes.push(placed);
        }
    }

    /// The drawing as an SVG document.
    pub fn to_svg(&self) -> String {
        let (width, height) = (self.width, self.height);
        let mut out = String::with_capacity(self.shapes.len() * 120 + 256);
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
             viewBox=\"0 0 {width} {height}\" font-family=\"DejaVu Sans, Arial, Helvetica, \
             sans-serif\">"
        );
        for shape in &self.shapes {
            write_shape(&mut out, shape);
        }
        out.push_str("</svg>\n");
        out
    }
}

fn write_shape(out: &mut String, shape: &Shape) {
    match shape {
        Shape::Rect { class, x, y, width, height, fill, stroke } => {
            let fill = fill.map_or_else(|| "none".to_string(), Color::hex);
            let _ = write!(
                out,
                "<rect class=\"{class}\" x=\"{x}\" y=\"{y}\" width=\"{width}\" \
                 height=\"{height}\" fill=\"{fill}\""
            );
            if let Some(stroke) = stroke {
                write_stroke(out, stroke);
            }
            out.push_str("/>\n");
        }
        Shape::Line { from, to, stroke } => {
            let _ = write!(
                out,
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"",
                from.0, from.1, to.0, to.1
            );
            write_stroke(out, stroke);
            out.push_str("/>\n");
        }
        Shape::Text { x, y, size, anchor, bold, color, text } => {
            let anchor = match anchor {
                Anchor::Start => "",
                Anchor::Middle => " text-anchor=\"middle\"",
            };
            let weight = if *bold { " font-weight=\"bold\"" } else { "" };
            let _ = writeln!(
                out,
                "<text x=\"{x}\" y=\"{y}\"{anchor} font-size=\"{size}\"{weight} \
                 fill=\"{}\">{}</text>",
                color.hex(),
                escaped(text)
            );
        }
    }
}

fn write_stroke(out: &mut String, stroke: &Stroke) {
    let _ = write!(out, " stroke=\"{}\" stroke-width=\"{}\"", stroke.color.hex(), stroke.width);
    if let Some((on, off)) = stroke.dash {
        let _ = write!(out, " stroke-dasharray=\"{on} {off}\"");
    }
}

/// `text` with the characters XML reserves escaped.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// `text` in printable ASCII, each other character as `?`: the standard PDF fonts have no
/// glyphs beyond it that every viewer agrees on.
pub fn ascii(text: &str) -> String {
    text.chars().map(|c| if c == ' ' || c.is_ascii_graphic() { c } else { '?' }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placing_scales_and_moves_every_coordinate() {
        let mut small = Drawing::new(10.0, 10.0);
        small.push(Shape::Line {
            from: (1.0, 2.0),
            to: (3.0, 4.0),
            stroke: Stroke { color: Color::BLACK, width: 1.0, dash: Some((2.0, 1.0)) },
        });
        small.centred_text((5.0, 5.0), Font::plain(4.0), "7".into());
        let mut page = Drawing::new(100.0, 100.0);
        page.place(&small, (10.0, 20.0), 2.0);
        assert_eq!(
            page.shapes[0],
            Shape::Line {
                from: (12.0, 24.0),
                to: (16.0, 28.0),
                stroke: Stroke { color: Color::BLACK, width: 2.0, dash: Some((4.0, 2.0)) },
            }
        );
        let Shape::Text { x, y, size, .. } = page.shapes[1] else { panic!("not a text") };
        assert_eq!((x, size), (20.0, 8.0));
        assert!((y - (30.0 + CENTRE_TO_BASELINE * 8.0)).abs() < 1e-9);
    }

    #[test]
    fn svg_text_is_escaped_and_titles_are_ascii() {
        let mut d = Drawing::new(1.0, 1.0);
        d.centred_text((0.0, 0.0), Font::plain(1.0), "a<b & c".into());
        assert!(d.to_svg().contains(">a&lt;b &amp; c</text>"));
        assert_eq!(ascii("Grüße 5x5\t"), "Gr??e 5x5?");
    }
}
