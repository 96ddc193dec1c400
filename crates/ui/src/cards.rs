//! Cards painted by hand: the face, suits drawn as shapes (egui's default fonts
//! have no suit symbols), and the accessible name of every card.

use crate::i18n::Lang;
use eframe::egui::{
    self, Align2, Color32, CornerRadius, FontId, Painter, Pos2, Rect, Shape, Stroke, StrokeKind,
    Vec2, pos2, vec2,
};
use rami_cards::{Card, Face, Rank, Suit};

/// How a card is drawn: size and colours (from the settings).
#[derive(Clone, Copy, Debug)]
pub struct CardStyle {
    pub size: Vec2,
    pub four_colours: bool,
}

impl CardStyle {
    pub fn new(large: bool, four_colours: bool) -> CardStyle {
        CardStyle {
            size: if large {
                vec2(66.0, 94.0)
            } else {
                vec2(50.0, 72.0)
            },
            four_colours,
        }
    }

    pub fn suit_colour(&self, suit: Suit) -> Color32 {
        match (suit, self.four_colours) {
            (Suit::Spades, _) => Color32::from_rgb(20, 20, 20),
            (Suit::Hearts, _) => Color32::from_rgb(200, 20, 30),
            (Suit::Diamonds, true) => Color32::from_rgb(20, 80, 200),
            (Suit::Diamonds, false) => Color32::from_rgb(200, 20, 30),
            (Suit::Clubs, true) => Color32::from_rgb(20, 130, 40),
            (Suit::Clubs, false) => Color32::from_rgb(20, 20, 20),
        }
    }
}

/// How a card stands out: selected, part of the hint, or plain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    pub selected: bool,
    pub hinted: bool,
    pub dimmed: bool,
}

pub fn rank_name(lang: Lang, rank: Rank) -> String {
    match rank.value() {
        1 => lang.t("rank.ace").to_string(),
        11 => lang.t("rank.jack").to_string(),
        12 => lang.t("rank.queen").to_string(),
        13 => lang.t("rank.king").to_string(),
        v => v.to_string(),
    }
}

pub fn suit_name(lang: Lang, suit: Suit) -> &'static str {
    lang.t(match suit {
        Suit::Spades => "suit.spades",
        Suit::Hearts => "suit.hearts",
        Suit::Diamonds => "suit.diamonds",
        Suit::Clubs => "suit.clubs",
    })
}

pub fn face_name(lang: Lang, face: Face) -> String {
    lang.fmt(
        "card.of",
        &[
            ("rank", &rank_name(lang, face.rank())),
            ("suit", suit_name(lang, face.suit())),
        ],
    )
}

/// The card as people say it: "7 of hearts", "Joker", "Joker as 5 of hearts".
pub fn card_name(lang: Lang, card: Card) -> String {
    match (card.is_joker(), card.face()) {
        (false, Some(f)) => face_name(lang, f),
        (true, Some(f)) => lang.fmt("card.joker_as", &[("card", &face_name(lang, f))]),
        _ => lang.t("card.joker").to_string(),
    }
}

/// A list of cards for a sentence: "7 of hearts, 8 of hearts".
pub fn cards_names(lang: Lang, cards: &[Card]) -> String {
    cards
        .iter()
        .map(|&c| card_name(lang, c))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Paints one card face in `rect`.
pub fn paint_card(painter: &Painter, rect: Rect, card: Card, style: &CardStyle, marks: Marks) {
    let radius = CornerRadius::same(5);
    let fill = if marks.dimmed {
        Color32::from_gray(200)
    } else {
        Color32::from_rgb(252, 250, 244)
    };
    painter.rect_filled(rect, radius, fill);
    let border = if marks.selected {
        Stroke::new(3.0, Color32::from_rgb(30, 120, 255))
    } else if marks.hinted {
        Stroke::new(3.0, Color32::from_rgb(255, 190, 0))
    } else {
        Stroke::new(1.0, Color32::from_gray(90))
    };
    painter.rect_stroke(rect, radius, border, StrokeKind::Inside);
    let w = rect.width();
    let small = w * 0.13;
    match card.face() {
        Some(face) => {
            let colour = style.suit_colour(face.suit());
            let label = face.rank().label();
            let font = FontId::proportional(w * 0.34);
            painter.text(
                rect.left_top() + vec2(w * 0.08, w * 0.04),
                Align2::LEFT_TOP,
                label,
                font,
                colour,
            );
            paint_suit(
                painter,
                rect.left_top() + vec2(w * 0.2, w * 0.58),
                small,
                face.suit(),
                colour,
            );
            paint_suit(
                painter,
                rect.center() + vec2(0.0, rect.height() * 0.14),
                w * 0.26,
                face.suit(),
                colour,
            );
            if card.is_joker() {
                // A named joker: a purple band says so.
                let band = Rect::from_min_max(
                    pos2(rect.left() + 2.0, rect.bottom() - w * 0.26),
                    pos2(rect.right() - 2.0, rect.bottom() - 2.0),
                );
                painter.rect_filled(band, CornerRadius::same(3), Color32::from_rgb(120, 50, 160));
                paint_star(painter, band.center(), band.height() * 0.4, Color32::WHITE);
            }
        }
        None => {
            let colour = Color32::from_rgb(120, 50, 160);
            painter.text(
                rect.center_top() + vec2(0.0, w * 0.08),
                Align2::CENTER_TOP,
                "J",
                FontId::proportional(w * 0.34),
                colour,
            );
            paint_star(painter, rect.center() + vec2(0.0, w * 0.2), w * 0.3, colour);
        }
    }
}

/// A five-pointed star (jokers): five triangles around a pentagon.
fn paint_star(painter: &Painter, c: Pos2, r: f32, colour: Color32) {
    let point = |i: usize, radius: f32| {
        let a = -std::f32::consts::FRAC_PI_2 + i as f32 * std::f32::consts::TAU / 10.0;
        c + vec2(a.cos(), a.sin()) * radius
    };
    let inner = r * 0.42;
    let pentagon: Vec<Pos2> = (0..5).map(|k| point(2 * k + 1, inner)).collect();
    painter.add(Shape::convex_polygon(pentagon, colour, Stroke::NONE));
    for k in 0..5 {
        let tip = point(2 * k, r);
        let left = point((2 * k + 9) % 10, inner);
        let right = point(2 * k + 1, inner);
        painter.add(Shape::convex_polygon(
            vec![tip, right, left],
            colour,
            Stroke::NONE,
        ));
    }
}

/// A suit symbol of half-size `s` centred on `c`, drawn with shapes.
pub fn paint_suit(painter: &Painter, c: Pos2, s: f32, suit: Suit, colour: Color32) {
    let none = Stroke::NONE;
    match suit {
        Suit::Diamonds => {
            painter.add(Shape::convex_polygon(
                vec![
                    c + vec2(0.0, -s),
                    c + vec2(s * 0.72, 0.0),
                    c + vec2(0.0, s),
                    c + vec2(-s * 0.72, 0.0),
                ],
                colour,
                none,
            ));
        }
        Suit::Hearts => {
            let r = s * 0.5;
            painter.circle_filled(c + vec2(-r, -r * 0.6), r, colour);
            painter.circle_filled(c + vec2(r, -r * 0.6), r, colour);
            painter.add(Shape::convex_polygon(
                vec![
                    c + vec2(-s * 0.97, -r * 0.35),
                    c + vec2(s * 0.97, -r * 0.35),
                    c + vec2(0.0, s),
                ],
                colour,
                none,
            ));
        }
        Suit::Spades => {
            let r = s * 0.5;
            painter.add(Shape::convex_polygon(
                vec![
                    c + vec2(0.0, -s),
                    c + vec2(s * 0.97, r * 0.35),
                    c + vec2(-s * 0.97, r * 0.35),
                ],
                colour,
                none,
            ));
            painter.circle_filled(c + vec2(-r, r * 0.45), r, colour);
            painter.circle_filled(c + vec2(r, r * 0.45), r, colour);
            stem(painter, c, s, colour);
        }
        Suit::Clubs => {
            let r = s * 0.42;
            painter.circle_filled(c + vec2(0.0, -s * 0.5), r, colour);
            painter.circle_filled(c + vec2(-s * 0.48, s * 0.15), r, colour);
            painter.circle_filled(c + vec2(s * 0.48, s * 0.15), r, colour);
            painter.circle_filled(c + vec2(0.0, 0.0), r * 0.6, colour);
            stem(painter, c, s, colour);
        }
    }
}

fn stem(painter: &Painter, c: Pos2, s: f32, colour: Color32) {
    painter.add(Shape::convex_polygon(
        vec![
            c + vec2(0.0, s * 0.1),
            c + vec2(s * 0.35, s),
            c + vec2(-s * 0.35, s),
        ],
        colour,
        Stroke::NONE,
    ));
}

/// Paints the back of a card (the stock, other players' hands).
pub fn paint_back(painter: &Painter, rect: Rect) {
    painter.rect_filled(rect, CornerRadius::same(5), Color32::from_rgb(40, 70, 140));
    painter.rect_stroke(
        rect.shrink(4.0),
        CornerRadius::same(3),
        Stroke::new(1.5, Color32::from_rgb(200, 210, 240)),
        StrokeKind::Inside,
    );
}

/// A card as a widget: painted, clickable and draggable, with an accessible name.
#[allow(clippy::too_many_arguments)] // each argument is one plain fact about the card
pub fn card_widget(
    ui: &mut egui::Ui,
    rect: Rect,
    id: egui::Id,
    card: Card,
    name: &str,
    style: &CardStyle,
    marks: Marks,
    enabled: bool,
) -> egui::Response {
    let sense = if enabled {
        egui::Sense::click_and_drag()
    } else {
        egui::Sense::hover()
    };
    let response = ui.interact(rect, id, sense);
    let lift = if marks.selected { -8.0 } else { 0.0 };
    let drawn = rect.translate(vec2(0.0, lift));
    if response.dragged() {
        // Drawn under the pointer, above everything else, while it moves.
        if let Some(p) = ui.ctx().pointer_interact_pos() {
            let layer = egui::LayerId::new(egui::Order::Tooltip, id.with("drag"));
            let painter = ui.ctx().layer_painter(layer);
            let moved = Rect::from_center_size(p, rect.size());
            paint_card(&painter, moved, card, style, marks);
        }
        paint_card(
            ui.painter(),
            drawn,
            card,
            style,
            Marks {
                dimmed: true,
                ..marks
            },
        );
    } else {
        paint_card(ui.painter(), drawn, card, style, marks);
    }
    let label = name.to_string();
    response.widget_info(|| {
        egui::WidgetInfo::selected(egui::Role::Button, enabled, marks.selected, &label)
    });
    response
}
