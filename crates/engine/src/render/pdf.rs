//! Pages of [`Drawing`]s, in points, written as a PDF document with `pdf-writer`.
//!
//! Text is set in Helvetica and Helvetica-Bold, two of the standard fonts every PDF viewer
//! carries, so nothing is embedded and no font needs to be installed; their digits are all
//! 556/1000 of the font size wide, which is how centred numbers are placed.

use super::drawing::{Anchor, Drawing, Shape, Stroke, ascii};
use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref, Str, TextStr};

/// Width of a Helvetica digit (and, near enough, of an average character), in thousandths
/// of the font size.
const GLYPH_WIDTH: f64 = 556.0;

const REGULAR: Name<'static> = Name(b"F1");
const BOLD: Name<'static> = Name(b"F2");

/// The document of `pages`, each drawn on a page of its own size; `title` goes into the
/// document's information.
pub fn pdf(pages: &[Drawing], title: &str) -> Vec<u8> {
    let mut next = Ref::new(1);
    let (catalog, tree, regular, bold, info) =
        (next.bump(), next.bump(), next.bump(), next.bump(), next.bump());
    let ids: Vec<(Ref, Ref)> = pages.iter().map(|_| (next.bump(), next.bump())).collect();

    let mut pdf = Pdf::new();
    pdf.catalog(catalog).pages(tree);
    pdf.pages(tree).kids(ids.iter().map(|&(page, _)| page)).count(ids.len() as i32);
    for (drawing, &(page_id, content_id)) in pages.iter().zip(&ids) {
        let mut page = pdf.page(page_id);
        page.media_box(Rect::new(0.0, 0.0, drawing.width as f32, drawing.height as f32));
        page.parent(tree);
        page.contents(content_id);
        page.resources().fonts().pair(REGULAR, regular).pair(BOLD, bold);
        page.finish();
        // Deflated: the grids' shapes repeat, and shrink about tenfold.
        let deflated = miniz_oxide::deflate::compress_to_vec_zlib(&content(drawing).finish(), 6);
        pdf.stream(content_id, &deflated).filter(Filter::FlateDecode);
    }
    for (id, name) in [(regular, b"Helvetica".as_slice()), (bold, b"Helvetica-Bold")] {
        pdf.type1_font(id).base_font(Name(name)).encoding_predefined(Name(b"WinAnsiEncoding"));
    }
    let producer = format!("kakurod {}", env!("CARGO_PKG_VERSION"));
    pdf.document_info(info).title(TextStr(title)).producer(TextStr(&producer));
    pdf.finish()
}

/// The page's content stream; PDF's y axis grows upwards, the drawing's downwards.
fn content(drawing: &Drawing) -> Content {
    let mut content = Content::new();
    let flip = |y: f64| (drawing.height - y) as f32;
    for shape in &drawing.shapes {
        content.save_state();
        match shape {
            Shape::Rect { x, y, width, height, fill, stroke, .. } => {
                content.rect(*x as f32, flip(y + height), *width as f32, *height as f32);
                if let Some(stroke) = stroke {
                    set_stroke(&mut content, stroke);
                }
                match (fill, stroke) {
                    (Some(fill), Some(_)) => {
                        let [r, g, b] = fill.unit();
                        content.set_fill_rgb(r, g, b).fill_nonzero_and_stroke();
                    }
                    (Some(fill), None) => {
                        let [r, g, b] = fill.unit();
                        content.set_fill_rgb(r, g, b).fill_nonzero();
                    }
                    (None, Some(_)) => {
                        content.stroke();
                    }
                    (None, None) => {
                        content.end_path();
                    }
                }
            }
            Shape::Line { from, to, stroke } => {
                set_stroke(&mut content, stroke);
                content.move_to(from.0 as f32, flip(from.1));
                content.line_to(to.0 as f32, flip(to.1)).stroke();
            }
            Shape::Text { x, y, size, anchor, bold, color, text } => {
                let text = ascii(text);
                let width = text.chars().count() as f64 * GLYPH_WIDTH / 1000.0 * size;
                let start = match anchor {
                    Anchor::Start => *x,
                    Anchor::Middle => x - width / 2.0,
                };
                let [r, g, b] = color.unit();
                content.set_fill_rgb(r, g, b);
                content.begin_text();
                content.set_font(if *bold { BOLD } else { REGULAR }, *size as f32);
                content.next_line(start as f32, flip(*y));
                content.show(Str(text.as_bytes()));
                content.end_text();
            }
        }
        content.restore_state();
    }
    content
}

fn set_stroke(content: &mut Content, stroke: &Stroke) {
    let [r, g, b] = stroke.color.unit();
    content.set_stroke_rgb(r, g, b).set_line_width(stroke.width as f32);
    if let Some((on, off)) = stroke.dash {
        content.set_dash_pattern([on as f32, off as f32], 0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::drawing::{Color, Font};

    #[test]
    fn one_page_per_drawing_with_its_text() {
        let mut first = Drawing::new(200.0, 100.0);
        first.text((10.0, 20.0), Font { bold: true, ..Font::plain(12.0) }, "Puzzle 1".into());
        first.push(Shape::Line {
            from: (0.0, 0.0),
            to: (10.0, 10.0),
            stroke: Stroke { color: Color::BLACK, width: 1.0, dash: Some((2.0, 1.0)) },
        });
        let second = Drawing::new(200.0, 100.0);
        let bytes = pdf(&[first, second], "sheet");
        let document = String::from_utf8_lossy(&bytes);
        assert!(document.starts_with("%PDF-"));
        assert_eq!(document.matches("/Filter /FlateDecode").count(), 2);
        let pages =
            document.matches("/Type /Page\n").count() + document.matches("/Type /Page ").count();
        assert_eq!(pages, 2, "{document}");
        assert!(document.contains("/BaseFont /Helvetica-Bold"));
        let find = |from: usize, needle: &[u8]| {
            bytes[from..].windows(needle.len()).position(|w| w == needle).map(|at| at + from)
        };
        // The first content stream, inflated.
        let start = find(0, b"stream\n").unwrap() + b"stream\n".len();
        let end = find(start, b"\nendstream").unwrap();
        let inflated = miniz_oxide::inflate::decompress_to_vec_zlib(&bytes[start..end]).unwrap();
        let text = String::from_utf8(inflated).unwrap();
        assert!(text.contains("(Puzzle 1) Tj"), "{text}");
        // The text's baseline at y = 20 from the top is 80 from the bottom.
        assert!(text.contains("10 80 Td"), "{text}");
    }
}
