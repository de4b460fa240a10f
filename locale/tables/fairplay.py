"""Strings of the fair-play app (staff's checks of agreement with the bot)."""

# msgid -> (Indonesian, Arabic).
T = {
    "time cap per decision (seconds)": (
        "batas waktu per keputusan (detik)", "الحد الأقصى للوقت لكل قرار (بالثواني)"),
    "opening decisions skipped": ("keputusan pembuka yang dilewati", "قرارات الافتتاح المتجاوزة"),
    "decisions considered": ("keputusan yang dihitung", "القرارات المحسوبة"),
    "bot's first choice": ("pilihan pertama bot", "الخيار الأول للروبوت"),
    "computed": ("dihitung", "حُسب في"),
    "agreement with the bot": ("kesesuaian dengan bot", "التوافق مع الروبوت"),
    "agreements with the bot": ("kesesuaian dengan bot", "حالات التوافق مع الروبوت"),
    "Queued": ("Dalam antrean", "في قائمة الانتظار"),
    "Failed": ("Gagal", "فشل"),
    "player": ("pemain", "اللاعب"),
    "recent games": ("permainan terakhir", "المباريات الأخيرة"),
    "requested by": ("diminta oleh", "طلبه"),
    "requested": ("diminta", "طُلب في"),
    "player's rating": ("rating pemain", "تصنيف اللاعب"),
    "reference players": ("pemain pembanding", "لاعبو المقارنة"),
    "reference decisions": ("keputusan pembanding", "قرارات المقارنة"),
    "reference matches": ("kecocokan pembanding", "تطابقات المقارنة"),
    "why it failed": ("penyebab gagal", "سبب الفشل"),
    "fair-play check": ("pemeriksaan permainan adil", "فحص اللعب النظيف"),
    "fair-play checks": ("pemeriksaan permainan adil", "فحوص اللعب النظيف"),
    "reference player": ("pemain pembanding", "لاعب مقارنة"),
    "game of a check": ("permainan dalam pemeriksaan", "مباراة في فحص"),
    "games of a check": ("permainan dalam pemeriksaan", "مباريات في فحص"),
    "game of the player": ("permainan pemain ini", "مباراة لهذا اللاعب"),
    "games of the player": ("permainan pemain ini", "مباريات هذا اللاعب"),
    "game of a reference player": ("permainan pemain pembanding", "مباراة للاعب مقارنة"),
    "games of the reference players": ("permainan para pemain pembanding", "مباريات لاعبي المقارنة"),
    "player's agreement": ("kesesuaian pemain", "توافق اللاعب"),
    "honest players of similar rating": (
        "pemain jujur dengan rating serupa", "لاعبون نزهاء بتصنيف مماثل"),
    "How many of the player's latest finished rated games to read.": (
        "Berapa banyak permainan berperingkat terakhir yang sudah selesai dari pemain ini yang dibaca.",
        "عدد المباريات المصنَّفة المنتهية الأخيرة لهذا اللاعب التي تُقرأ."),
    "Only staff run fair-play checks.": (
        "Hanya staf yang menjalankan pemeriksaan permainan adil.",
        "فحوص اللعب النظيف يجريها فريق الإدارة فقط."),
    "Choose from 1 to %(limit)s recent games.": (
        "Pilih 1 sampai %(limit)s permainan terakhir.", "اختر من 1 إلى %(limit)s من المباريات الأخيرة."),
    "How often a player chose the strongest bot's first choice, beside honest players of similar "
    "rating. This is a signal for staff to look closer, not proof of cheating: no action is ever "
    "taken automatically.": (
        "Seberapa sering seorang pemain memilih pilihan pertama bot terkuat, dibandingkan dengan "
        "pemain jujur dengan rating serupa. Ini adalah tanda bagi staf untuk memeriksa lebih dekat, "
        "bukan bukti kecurangan: tidak ada tindakan yang pernah diambil secara otomatis.",
        "كم مرة اختار اللاعب الخيار الأول لأقوى روبوت، مقارنةً بلاعبين نزهاء بتصنيف مماثل. "
        "هذه إشارة لفريق الإدارة كي يدقق أكثر، وليست دليلًا على الغش: لا يُتخذ أي إجراء تلقائيًا أبدًا."),
    "%(share).1f %% (%(matches)d of %(decisions)d)": (
        "%(share).1f %% (%(matches)d dari %(decisions)d)", "%(share).1f %% (%(matches)d من %(decisions)d)"),
}
