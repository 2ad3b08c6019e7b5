"""The catalogue in Japanese: each game's, variant's and option's name and summary, beside the
English of `describe()`. The terms are the seeds' own where they have them (はさみ将棋 and its
天秤 and 端落とし rules, パールゲーム, 神 and 預言者, 上級ルール); tests/games/test_names_ja.py checks
that every game, variant and option has both."""
from __future__ import annotations

_REPETITION = {"name": "同形反復", "summary": "同じ局面が N 回目に現れたら引き分け (0: なし)"}
_NO_CAPTURE = {"name": "駒取りなしの上限", "summary": "駒を取らない手が N 手続いたら引き分け (0: なし)"}
_MAX_PLIES = {"name": "手数の上限", "summary": "この手数で勝負がつかなければ引き分け (0: なし)"}
_BOARD = {"name": "盤の大きさ", "summary": "N×N の盤"}
_STANDARD = {"name": "標準", "summary": "既定のルール"}

JA: dict[str, dict] = {
    "hasami-shogi": {
        "title": "はさみ将棋",
        "summary": "歩兵だけで相手の駒をはさんで取る、将棋道具を用いた日本の遊び。9×9 の盤の最下段に"
                   "歩を 9 枚ずつ並べ、駒は飛車のように縦横に何マスでも動く。相手の駒の列を自分の駒で"
                   "はさむか、盤の端で囲めば取れる。自分から相手の駒の間に入るのは安全。5 枚取るか、"
                   "相手の応手のあとも 3 枚差をつけていれば勝ち (日本将棋連盟のルール)。天秤の変種"
                   "(はさみ天秤端落とし) は斜めのはさみ、端落とし、天秤を加え、一方の駒が 1 枚になるまで指す。",
        "variants": {
            "standard": {"name": "標準 (日本将棋連盟)", "summary": "縦横のはさみと囲み、5 枚取りか 3 枚差で勝ち"},
            "tenbin": {"name": "天秤 (はさみ天秤端落とし)",
                       "summary": "斜めのはさみ、端落とし、天秤を加え、相手の駒を 1 枚まで減らせば勝ち"},
        },
        "options": {
            "repetition": _REPETITION,
            "no_capture_limit": _NO_CAPTURE,
            "enclosure": {"name": "囲み取り", "summary": "どの囲みで取れるか: なし、隅だけ、盤端の駒の群れも (§3.2b)"},
            "capture_goal": {"name": "取って勝ち", "summary": "その枚数を取ればすぐ勝ち (§3.3.1)"},
            "lead_rule": {"name": "枚数差の勝ち", "summary": "相手の応手のあとも残るこの枚数差で勝ち (0: なし)"},
            "directions": {"name": "はさむ方向", "summary": "はさみと天秤の方向: 4 (縦横) か 8 (斜めも)"},
            "hashi_otoshi": {"name": "端落とし", "summary": "自分の駒と盤の端ではさむと取れる (§3.4)"},
            "tenbin": {"name": "天秤", "summary": "相手の駒の間に入った手で、はさんだ相手の駒を取れる (§3.2c)"},
        },
    },
    "dai-hasami-shogi": {
        "title": "ダイはさみ将棋",
        "summary": "大きなはさみ将棋: 9×9 の盤に 1 人 18 枚、自陣 2 段に並べる。駒は飛車のように動くか、"
                   "隣の駒 1 枚を跳び越えてその先に着く。はさんだ相手の駒と、隅に閉じ込めた 1 枚の駒は取れる。"
                   "自陣 2 段の外で自分の駒を 5 枚一列に並べれば勝ち (既定では縦・横・斜め)。",
        "variants": {"standard": _STANDARD},
        "options": {
            "repetition": _REPETITION,
            "no_capture_limit": _NO_CAPTURE,
            "line_dirs": {"name": "五の並び", "summary": "5 枚の並びとして数える方向: 縦横だけか、斜めも"},
            "five_must_survive_reply": {"name": "五の持続", "summary": "5 枚の並びが相手の 1 手を耐えてはじめて勝ち"},
            "custodial_max": {"name": "はさめる長さ", "summary": "一度にはさんで取れる列の最大の長さ"},
        },
    },
    "mak-yek": {
        "title": "マークエク",
        "summary": "タイのはさみ将棋 (マレーシアではアピット・ソドック): 8×8 の盤に 1 人 16 枚を 2 列に並べる。"
                   "駒は飛車のように動く。自分の駒ではさんだ相手の駒は取れ、縦か横で相手の駒 2 枚の間に"
                   "入った駒はその 2 枚を取る。相手の駒をすべて取れば勝ち。",
        "variants": {"standard": _STANDARD},
        "options": {"repetition": _REPETITION, "no_capture_limit": _NO_CAPTURE},
    },
    "latrunculi": {
        "title": "ラトルンクリ",
        "summary": "ローマの兵士の遊び (ルードゥス・ラトルンクロールム) のコヴァルスキによる復元: 12×8 の盤に"
                   "1 人 12 枚の兵と将 (ドゥクス) 1 枚、すべて飛車のように動く。自分の駒 2 枚の間の孤立した"
                   "相手の兵、または隅に閉じ込めた兵は取れる。2 枚並んだ兵は安全で、将は取られない。"
                   "相手が指せる手をなくせば勝ち。",
        "variants": {"standard": _STANDARD},
        "options": {"repetition": _REPETITION, "no_capture_limit": _NO_CAPTURE},
    },
    "pearl-war": {
        "title": "パールゲーム (戦争ゲーム)",
        "summary": "Glass Pearl Game の戦争ゲーム: 36 個の玉の軍が向かい合う角から出て、前進だけする。"
                   "一手で玉を 1 個まっすぐ進め、進路の玉を敵味方の区別なく (盤外へも) 押し動かす。"
                   "動列はつねに隣の列の味方の玉と接していなければならない。先に敵の本陣 (角の目) に"
                   "達したほうが勝ち。",
        "variants": {"standard": {"name": "標準 (階段型)", "summary": "階段型の軍"},
                     "square": {"name": "正方形", "summary": "6×6 の正方形の軍"}},
        "options": {
            "size": _BOARD,
            "army": {"name": "軍の形", "summary": "36 個の軍の形: 階段型か正方形"},
            "first": {"name": "先手", "summary": "1 手目を指す側"},
            "max_plies": {"name": "手数の上限", "summary": "この手数で引き分け"},
        },
    },
    "pearl-five": {
        "title": "パール5 (5目並べ)",
        "summary": "Glass Pearl Game の五目並べ: 最初の玉のあとは、どの玉も空いた目から押し入れ、接している"
                   "玉の列を色に関係なくずらす。並びは作ったのが相手の押しでも、その色の持ち主のもの。"
                   "先手の黒は縦か横にちょうど 5 個でしか勝てない。",
        "variants": {"standard": _STANDARD},
        "options": {
            "size": _BOARD,
            "handicap": {"name": "ハンディキャップ", "summary": "あり: 黒は縦か横にちょうど 5 個でだけ勝つ"},
            "push": {"name": "押し入れ", "summary": "押し入れで列全体をずらすか、前が空いた玉 1 個だけか"},
        },
    },
    "pearl-maze": {
        "title": "パールメイズ (迷路パズル)",
        "summary": "Glass Pearl Game のひとり遊び: 黒玉が白玉の正方形の中を、いつも別の玉を押しながら、"
                   "動列を隣の玉と接したまま 1 目ずつ進む。黒が動けなくなるまでできるだけ多く進むか、"
                   "決めたゴールの目に着く。",
        "variants": {"standard": {"name": "標準 (隅)", "summary": "黒が白の正方形の左上の隅に代わる"},
                     "outside": {"name": "外から", "summary": "黒が左上の隅の左に立つ"}},
        "options": {
            "size": {"name": "盤の大きさ", "summary": "N×N の盤 (n+2 ≤ N)"},
            "n": {"name": "白の正方形", "summary": "白玉の正方形の一辺"},
            "black": {"name": "黒の位置", "summary": "黒は左上の隅に代わるか、その左に立つ"},
            "goal": {"name": "ゴール", "summary": "最大歩数の遊び方か、ゴールの目 (黒の出発点以外) に着く遊び方"},
            "push_off": {"name": "盤外への押し出し", "summary": "一歩で玉を盤外へ押し出してよいか"},
        },
    },
    "pearl-survival": {
        "title": "パールサバイバル",
        "summary": "2〜4 人の Glass Pearl Game: 各自が白玉の正方形の周上に自分の玉を置き、正方形の中を"
                   "まっすぐ進んで前の玉を押す。動列は隣と接していなければならない。盤外へ押し出されたら脱落、"
                   "自分の番に動けなければ死ぬ。最後まで動ける玉が勝ち。",
        "variants": {"standard": _STANDARD},
        "options": {
            "size": {"name": "盤の大きさ", "summary": "N×N の盤 (n+2 ≤ N)"},
            "n": {"name": "白の正方形", "summary": "白玉の正方形の一辺"},
            "enter": {"name": "進む先", "summary": "玉が進む目にあってよいもの: どの玉でも、白玉だけ"},
            "max_plies": {"name": "手数の上限", "summary": "打ち切りの手数"},
        },
    },
    "pearl-yard": {
        "title": "パールヤード (道路網ゲーム)",
        "summary": "2 人の Glass Pearl Game: 警察 (Police) が泥棒 (Thief) を追う。一手ごとに自分の玉の後ろから"
                   "白玉を押し入れて 1 目進め、前の玉も運ぶ。田の字型 (2×2) を作ってはいけない。"
                   "警察は泥棒の隣に来れば勝ち、泥棒は盤外へ押し出されれば (逃げれば) 勝ち。",
        "variants": {"standard": _STANDARD},
        "options": {
            "size": {"name": "盤の大きさ", "summary": "N×N の盤、十字は中央"},
            "first": {"name": "先手", "summary": "1 手目を指すのは警察か泥棒か"},
        },
    },
    "glaisher": {
        "title": "グレーシャー",
        "summary": "61 ヘックスの六角形の盤の接続ゲーム。手番ではスタックを 1 つ、段数の異なる部分に分け、"
                   "どれも同じ方向へその段数だけ飛ばす。高さが同じか低い相手のスタックに着いた部分は、"
                   "それを裏返して上に重なる。そのあと共通のリザーブからディスクを 1 枚加える。"
                   "自分のスタックの繋がりで盤の対辺を先に繋いだほうが勝ち、分割できるスタックがなければ負け。",
        "variants": {"standard": {"name": "標準 (3 重の環)", "summary": "6 段のスタック 3 つずつの初期配置"},
                     "ring2": {"name": "2 重の環", "summary": "内側の環の初期配置"},
                     "advanced": {"name": "上級ルール", "summary": "各自が自分の 6 段のスタックを置いて始める"}},
        "options": {
            "setup": {"name": "初期配置", "summary": "ring3、ring2、または free (各自が 6 段のスタックを置く上級ルール)"},
            "reserve": {"name": "リザーブ", "summary": "始めの共通のリザーブのディスクの数"},
            "repetition": _REPETITION,
            "max_plies": _MAX_PLIES,
        },
    },
    "ring-rugby": {
        "title": "リングラグビー",
        "summary": "リングラグビー (原題なし): 6×6 の盤を 2 枚つないだ場で、6 個ずつの駒の黒軍と白軍が 2 つの"
                   "リングを争う。駒は跳び越さずに 2 目まで動き、縦横の攻撃で敵駒を跳ね飛ばし (当たった"
                   "持ち手からリングを奪い)、リングはラグビーのように横か後ろへパスする。リングを持つ駒が"
                   "先に敵のゴールに入れば勝ち。上級ルールは跳ね飛ばされた駒の復活、縦の大移動、ゴールの封鎖を加える。",
        "variants": {"standard": {"name": "上級ルール", "summary": "復活、大移動、ゴールの封鎖あり (advanced とも呼ぶ)"},
                     "basic": {"name": "基本ルール", "summary": "上級ルールなし"}},
        "options": {
            "width": {"name": "列の数", "summary": "列の数 = 1 軍の駒の数; ゴールは中央の 2 列"},
            "half_depth": {"name": "盤の段数", "summary": "1 枚の盤の段数; 場は 2 × 段数"},
            "start_rank": {"name": "初期の段", "summary": "黒の初期の段 (1 .. 段数-1); 白は対称"},
            "advanced": {"name": "上級ルール", "summary": "復活、大移動、ゴールの封鎖"},
            "knight_block": {"name": "桂馬跳びの妨げ", "summary": "桂馬跳びを妨げる駒: どちらかの脚 / 縦横の脚だけ / 両方の脚"},
            "pass_forward": {"name": "前へのパス", "summary": "前方 3 方向へのパスを許す"},
            "pass_range": {"name": "パスの距離", "summary": "パスが届く最も遠い距離"},
            "big_move_carriers": {"name": "持ち手の大移動", "summary": "リングを持つ駒も大移動できる"},
            "forbid_two_ring_fortress": {"name": "2 リングの砦の禁止",
                                         "summary": "取られない 2 個の持ち手が両方のリングを持つことを禁じる"},
            "goal_closure_winner": {"name": "ゴール封鎖の勝者",
                                    "summary": "attacker: 自分の駒でゴールを塞いだ側の負け; closer: その側の勝ち"},
            "repetition_count": {"name": "同形反復の回数", "summary": "同形反復の規則が働く出現回数"},
            "max_plies": {"name": "手数の上限", "summary": "この手数で引き分け (安全装置)"},
        },
    },
    "new-eleusis": {
        "title": "新エリューシス",
        "summary": "4〜8 人の帰納推理ゲーム: 神 (サーバーかプレイヤー) が、どのカードが前のカードに続けるかを"
                   "決める秘密のルールを作る。科学者は手札からメインラインにカードを出し、判定から学び、"
                   "預言者を宣言して神の代わりに判定でき、サドンデスの前に手札をなくすことを競う。"
                   "エリューシス・エクスプレスはルールそのものを当てる推測を加える。",
        "variants": {"standard": _STANDARD,
                     "express": {"name": "エクスプレス", "summary": "手札 12 枚、1 枚ずつのプレイ、ルールの推測"}},
        "options": {
            "god": {"name": "神", "summary": "machine: サーバーが神で全員が科学者; player: 席 0 (rounds=all では交代) が神"},
            "rule": {"name": "神のルール", "summary": "machine のときだけ、秘密: ルールの文か JSON の構文木; null ならエンジンが選ぶ"},
            "sudden_death": {"name": "サドンデス", "summary": "サドンデスの枚数: seed は 30 / 預言者の後 20、classic は 40 / 30"},
            "rounds": {"name": "ラウンド数", "summary": "all = 全員が一度ずつ神になる (player のとき)"},
            "express": {"name": "エクスプレス", "summary": "エリューシス・エクスプレス: 12 枚、1 枚ずつ、推測あり"},
        },
    },
}


def japanese(slug: str) -> dict:
    """The Japanese name and summary of a game, its variants and its options."""
    return JA[slug]
