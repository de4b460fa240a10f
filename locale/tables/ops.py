"""Strings of the ops app (health, blocks, reports, staff adjudication, held time-outs, the staff
audit log), templates/ops, the block refusal, and the game side of adjudication
(games.adjudication, its result labels)."""

# msgid -> (Indonesian, Arabic); a plural msgid -> ((Indonesian,), (six Arabic forms)).
T = {
    "Operations and fair play": ("Operasional dan permainan adil", "التشغيل واللعب النظيف"),
    "blocked at": ("diblokir pada", "حُظر في"),
    "You cannot block yourself.": ("Anda tidak bisa memblokir diri sendiri.", "لا يمكنك حظر نفسك."),
    "This player does not accept your challenges.": (
        "Pemain ini tidak menerima tantangan Anda.", "هذا اللاعب لا يقبل تحدياتك."),
    "Report either a player or a game.": (
        "Laporkan seorang pemain atau sebuah permainan.", "أبلغ عن لاعب أو عن مباراة."),
    "Why": ("Alasan", "السبب"),
    "Mark reviewed": ("Tandai sudah ditinjau", "علِّم كمُراجَع"),
    "Mark dismissed": ("Tandai ditolak", "علِّم كمرفوض"),
    "Choose abuse, suspected engine help, stalling or other.": (
        "Pilih pelecehan, dugaan bantuan mesin, mengulur waktu, atau lainnya.",
        "اختر الإساءة أو الاشتباه في مساعدة محرك أو المماطلة أو غير ذلك."),
    "Say why you report this.": ("Jelaskan alasan Anda melaporkan ini.", "اذكر سبب إبلاغك."),
    "The reason is too long (at most %(limit)s characters).": (
        "Alasannya terlalu panjang (paling banyak %(limit)s karakter).",
        "السبب طويل جدًا (%(limit)s حرفًا على الأكثر)."),
    "You cannot report yourself.": ("Anda tidak bisa melaporkan diri sendiri.", "لا يمكنك الإبلاغ عن نفسك."),
    "You have already reported this today.": (
        "Anda sudah melaporkan ini hari ini.", "لقد أبلغت عن هذا اليوم بالفعل."),
    "This report does not exist.": ("Laporan ini tidak ada.", "هذا البلاغ غير موجود."),
    "Mark a report reviewed or dismissed.": (
        "Tandai laporan sebagai sudah ditinjau atau ditolak.", "علِّم البلاغ كمُراجَع أو كمرفوض."),
    "Only staff review reports.": (
        "Hanya staf yang meninjau laporan.", "لا يراجع البلاغات إلا فريق الإشراف."),
    "What happened": ("Apa yang terjadi", "ماذا حدث"),
    "Reason": ("Alasan", "السبب"),
    "Abuse": ("Pelecehan", "إساءة"),
    "Suspected engine help": ("Dugaan bantuan mesin", "اشتباه في مساعدة محرك"),
    "Stalling": ("Mengulur waktu", "مماطلة"),
    "Other": ("Lainnya", "غير ذلك"),
    "Reviewed": ("Sudah ditinjau", "مُراجَع"),
    "Dismissed": ("Ditolak", "مرفوض"),
    "reported player": ("pemain yang dilaporkan", "اللاعب المُبلَّغ عنه"),
    "reported game": ("permainan yang dilaporkan", "المباراة المُبلَّغ عنها"),
    "kind": ("jenis", "النوع"),
    "reason": ("alasan", "السبب"),
    "reported at": ("dilaporkan pada", "أُبلغ في"),
    "why": ("alasan", "السبب"),
    "at": ("pada", "في"),
    "You unblocked %(name)s.": ("Anda membuka blokir %(name)s.", "ألغيت حظر %(name)s."),
    "You blocked %(name)s: they cannot challenge you.": (
        "Anda memblokir %(name)s: dia tidak bisa menantang Anda.", "حظرت %(name)s: لا يمكنه تحديك."),
    "Choose what happened and say why.": (
        "Pilih apa yang terjadi dan jelaskan alasannya.", "اختر ما حدث واذكر السبب."),
    "Thank you: staff will look at your report.": (
        "Terima kasih: staf akan memeriksa laporan Anda.", "شكرًا لك: سيطّلع فريق الإشراف على بلاغك."),
    "Report this game": ("Laporkan permainan ini", "أبلغ عن هذه المباراة"),
    "Send the report": ("Kirim laporan", "أرسل البلاغ"),
    "Unblock": ("Buka blokir", "إلغاء الحظر"),
    "You blocked this player: they cannot challenge you.": (
        "Anda memblokir pemain ini: dia tidak bisa menantang Anda.", "حظرت هذا اللاعب: لا يمكنه تحديك."),
    "Block": ("Blokir", "حظر"),
    "Players you blocked": ("Pemain yang Anda blokir", "اللاعبون الذين حظرتهم"),
    "Report this player": ("Laporkan pemain ini", "أبلغ عن هذا اللاعب"),
    "Say why; the audit log keeps it with your name and the time.": (
        "Jelaskan alasannya; log audit menyimpannya bersama nama Anda dan waktunya.",
        "اذكر السبب؛ يحفظه سجل التدقيق مع اسمك والوقت."),
    "A player you block cannot challenge you; games already running go on.": (
        "Pemain yang Anda blokir tidak bisa menantang Anda; permainan yang sedang berjalan tetap berlanjut.",
        "لا يمكن للاعب الذي تحظره أن يتحداك؛ وتستمر المباريات الجارية."),
    "You have not blocked anyone.": ("Anda belum memblokir siapa pun.", "لم تحظر أحدًا."),

    # Staff adjudication: ops (models, admin, errors) and the game side (games.adjudication,
    # the result labels in games.views), kept together here.
    "Only staff may do this.": ("Hanya staf yang boleh melakukan ini.", "هذا متاح لفريق الإشراف فقط."),
    "Say why: the audit log keeps the reason.": (
        "Jelaskan alasannya: log audit menyimpan alasan tersebut.", "اذكر السبب: يحفظه سجل التدقيق."),
    "This game is still running: award it, or cancel it first.": (
        "Permainan ini masih berjalan: tetapkan pemenangnya, atau batalkan dulu.",
        "هذه المباراة ما زالت جارية: احكم بنتيجتها أو ألغِها أولًا."),
    "Only an ended game can be changed this way.": (
        "Hanya permainan yang sudah berakhir yang bisa diubah dengan cara ini.",
        "لا يمكن تغيير مباراة بهذه الطريقة إلا بعد انتهائها."),
    "This game is already void.": ("Permainan ini sudah dibatalkan hasilnya.", "هذه المباراة ملغاة بالفعل."),
    "Choose a side of this game, or none for a draw.": (
        "Pilih salah satu pihak dalam permainan ini, atau tidak ada untuk seri.",
        "اختر أحد طرفي هذه المباراة، أو لا أحد للتعادل."),
    "This game did not end on time.": (
        "Permainan ini tidak berakhir karena waktu habis.", "لم تنتهِ هذه المباراة بنفاد الوقت."),
    "This game hides information that its end revealed: it cannot be resumed. Void it instead.": (
        "Permainan ini menyembunyikan informasi yang terungkap saat berakhir: permainan tidak bisa "
        "dilanjutkan. Batalkan hasilnya saja.",
        "تخفي هذه المباراة معلومات كشفتها نهايتها: لا يمكن استئنافها. ألغِها بدلًا من ذلك."),
    "The moves of this game cannot be played again.": (
        "Langkah-langkah permainan ini tidak bisa dimainkan ulang.",
        "لا يمكن إعادة لعب نقلات هذه المباراة."),
    "Voided by staff": ("Dibatalkan oleh staf", "ألغاها فريق الإشراف"),
    "adjudicated by staff": ("diputuskan oleh staf", "بقرار من فريق الإشراف"),
    "forfeit": ("kalah karena diskualifikasi", "خسارة بالتخلف"),
    "Suspending a player: they cannot log in (their sessions end, their API tokens are revoked); "
    "every running game against a person is lost by them (forfeit), or aborted if they have not "
    "moved in it yet; games against bots are aborted; their open challenges are cancelled; they "
    "leave their ladders and are withdrawn from their tournaments. Lifting the suspension lets "
    "them log in again; ended games stay ended.": (
        "Menangguhkan pemain: ia tidak bisa masuk (sesinya berakhir, token API-nya dicabut); setiap "
        "permainan yang berjalan melawan orang lain dianggap kalah (diskualifikasi), atau dihentikan "
        "jika ia belum melangkah di dalamnya; permainan melawan bot dihentikan; tantangan terbukanya "
        "dibatalkan; ia keluar dari tangganya dan ditarik dari turnamennya. Mencabut penangguhan "
        "membuatnya bisa masuk lagi; permainan yang sudah berakhir tetap berakhir.",
        "تعليق حساب لاعب: لا يمكنه تسجيل الدخول (تنتهي جلساته وتُلغى رموز API الخاصة به)؛ كل مباراة "
        "جارية ضد شخص يخسرها (خسارة بالتخلف)، أو تُجهض إن لم يلعب فيها أي نقلة بعد؛ وتُجهض المباريات "
        "ضد الروبوتات؛ وتُلغى تحدياته المفتوحة؛ ويغادر سلالمه ويُسحب من بطولاته. رفع التعليق يتيح له "
        "تسجيل الدخول من جديد؛ وتبقى المباريات المنتهية منتهية."),
    "Winner": ("Pemenang", "الفائز"),
    "First seat": ("Kursi pertama", "المقعد الأول"),
    "Second seat": ("Kursi kedua", "المقعد الثاني"),
    "Draw (no winner)": ("Seri (tanpa pemenang)", "تعادل (بلا فائز)"),
    "%(count)d done.": (
        ("%(count)d selesai.",),
        ("لم يُنفَّذ شيء (%(count)d).", "نُفِّذ إجراء واحد (%(count)d).", "نُفِّذ إجراءان (%(count)d).",
         "نُفِّذت %(count)d إجراءات.", "نُفِّذ %(count)d إجراءً.", "نُفِّذ %(count)d إجراء."),
    ),
    "Void (no result, no rating change)": (
        "Batalkan hasil (tanpa hasil, tanpa perubahan rating)",
        "إلغاء (بلا نتيجة ولا تغيير في التصنيف)"),
    "Void games": ("Batalkan hasil permainan", "إلغاء المباريات"),
    "Award to a side": ("Menangkan salah satu pihak", "منح الفوز لأحد الطرفين"),
    "Award games": ("Tetapkan hasil permainan", "الحكم بنتائج المباريات"),
    "Reverse a timeout (the game runs again)": (
        "Batalkan kekalahan waktu (permainan berjalan lagi)",
        "التراجع عن نفاد الوقت (تُستأنف المباراة)"),
    "Reverse timeouts": ("Batalkan kekalahan waktu", "التراجع عن حالات نفاد الوقت"),
    "Suspend": ("Tangguhkan", "تعليق"),
    "Suspend players": ("Tangguhkan pemain", "تعليق اللاعبين"),
    "Lift the suspension": ("Cabut penangguhan", "رفع التعليق"),
    "Lift suspensions": ("Cabut penangguhan", "رفع التعليقات"),
    "This player does not exist.": ("Pemain ini tidak ada.", "هذا اللاعب غير موجود."),
    "You cannot suspend yourself.": ("Anda tidak bisa menangguhkan diri sendiri.", "لا يمكنك تعليق حسابك."),
    "This player is already suspended.": ("Pemain ini sudah ditangguhkan.", "هذا اللاعب معلَّق بالفعل."),
    "This player is not suspended.": ("Pemain ini tidak sedang ditangguhkan.", "هذا اللاعب غير معلَّق."),
    "Void a game": ("Batalkan hasil permainan", "إلغاء مباراة"),
    "Award a game": ("Tetapkan hasil permainan", "الحكم بنتيجة مباراة"),
    "Reverse a timeout": ("Batalkan kekalahan waktu", "التراجع عن نفاد الوقت"),
    "Suspend a player": ("Tangguhkan pemain", "تعليق لاعب"),
    "Lift a suspension": ("Cabut penangguhan", "رفع تعليق"),
    "staff member": ("anggota staf", "عضو فريق الإشراف"),
    "details": ("rincian", "التفاصيل"),
    "staff audit log": ("log audit staf", "سجل تدقيق فريق الإشراف"),
    "report": ("laporan", "البلاغ"),
    "Mark a report reviewed": ("Tandai laporan sudah ditinjau", "تعليم بلاغ كمُراجَع"),
    "Dismiss a report": ("Tolak laporan", "رفض بلاغ"),
    "Time held games out": ("Akhiri permainan yang ditahan karena waktu habis",
                            "إنهاء المباريات المعلَّقة بانقضاء الوقت"),
    "Extend held games": ("Perpanjang permainan yang ditahan", "تمديد المباريات المعلَّقة"),
    "Request a fair-play check": ("Minta pemeriksaan permainan adil", "طلب فحص للعب النظيف"),

    # Held time-outs (games.TimeoutBatch), decided by staff in ops.admin
    "Time the held games out": ("Akhiri permainan yang ditahan karena waktu habis",
                                "أنهِ المباريات المعلَّقة بانقضاء الوقت"),
    "Extend the held games as after an outage": ("Perpanjang permainan yang ditahan seperti setelah gangguan",
                                                 "مدِّد المباريات المعلَّقة كما بعد انقطاع"),
    "%(count)d game changed.": (
        ("%(count)d permainan diubah.",),
        ("لم تتغير أي مباراة (%(count)d).", "تغيرت مباراة واحدة (%(count)d).", "تغيرت مباراتان (%(count)d).",
         "تغيرت %(count)d مباريات.", "تغيرت %(count)d مباراة.", "تغيرت %(count)d مباراة."),
    ),
    "Games that moved on or ended since they were held are left alone.": (
        "Permainan yang sudah berlanjut atau berakhir sejak ditahan dibiarkan.",
        "تُترك المباريات التي تقدمت أو انتهت منذ تعليقها."),
    "game adjudication": ("keputusan permainan", "الحكم في مباراة"),
    "game adjudications": ("keputusan permainan", "الحكم في المباريات"),
    "player suspension": ("penangguhan pemain", "تعليق لاعب"),
    "player suspensions": ("penangguhan pemain", "تعليق اللاعبين"),
}
