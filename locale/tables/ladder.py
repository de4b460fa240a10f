"""Strings of the ladder app and templates/ladder."""

# msgid -> (Indonesian, Arabic).
T = {
    "Ladders": ("Tangga", "السلالم"),
    "This ladder does not exist.": ("Tangga ini tidak ada.", "هذا السلم غير موجود."),
    "This ladder is closed.": ("Tangga ini sudah ditutup.", "هذا السلم مغلق."),
    "You are already on this ladder.": ("Anda sudah ada di tangga ini.", "أنت في هذا السلم بالفعل."),
    "You are not on this ladder.": ("Anda tidak ada di tangga ini.", "أنت لست في هذا السلم."),
    "This player is not on the ladder.": ("Pemain ini tidak ada di tangga.", "هذا اللاعب ليس في السلم."),
    "You can only challenge players above you.": (
        "Anda hanya bisa menantang pemain di atas Anda.",
        "لا يمكنك تحدي إلا اللاعبين الذين فوقك.",
    ),
    "You can challenge at most %(places)s places above you.": (
        "Anda bisa menantang paling jauh %(places)s posisi di atas Anda.",
        "يمكنك التحدي حتى %(places)s من المراكز فوقك على الأكثر.",
    ),
    "You are already playing a ladder game against this player.": (
        "Anda sudah sedang bermain permainan tangga melawan pemain ini.",
        "أنت تلعب بالفعل مباراة سلم ضد هذا اللاعب.",
    ),
    "You already have %(limit)s ladder challenges running.": (
        "Anda sudah memiliki %(limit)s tantangan tangga yang berjalan.",
        "لديك بالفعل %(limit)s من تحديات السلم الجارية.",
    ),
    "This player already has %(limit)s ladder challenges to answer.": (
        "Pemain ini sudah memiliki %(limit)s tantangan tangga yang harus dijawab.",
        "لدى هذا اللاعب بالفعل %(limit)s من تحديات السلم بانتظار رده.",
    ),
    "You challenged this player less than %(days)s days ago.": (
        "Anda menantang pemain ini kurang dari %(days)s hari yang lalu.",
        "تحدّيت هذا اللاعب منذ أقل من %(days)s من الأيام.",
    ),
    "This player is on vacation.": ("Pemain ini sedang cuti.", "هذا اللاعب في إجازة."),
    "places up": ("posisi ke atas", "مراكز للأعلى"),
    "A player may challenge at most this many places above them.": (
        "Seorang pemain boleh menantang paling jauh sebanyak ini posisi di atasnya.",
        "يمكن للاعب أن يتحدى حتى هذا العدد من المراكز فوقه على الأكثر.",
    ),
    "open": ("terbuka", "مفتوح"),
    "Players may join and challenge.": ("Pemain boleh bergabung dan menantang.", "يمكن للاعبين الانضمام والتحدي."),
    "ladder": ("tangga", "السلم"),
    "ladders": ("tangga", "السلالم"),
    "joined": ("bergabung", "انضم"),
    "left": ("keluar", "غادر"),
    "Playing": ("Sedang bermain", "قيد اللعب"),
    "Done": ("Selesai", "انتهى"),
    "The challenger took the defender's place": (
        "Penantang mengambil posisi pihak yang ditantang",
        "أخذ المتحدّي مكان المدافع",
    ),
    "The defender won": ("Pihak yang ditantang menang", "فاز المدافع"),
    "Won because the opponent never moved: nobody moves": (
        "Menang karena lawan tidak pernah melangkah: tidak ada yang berpindah posisi",
        "فوز لأن الخصم لم يلعب أبدًا: لا يتغير أي مركز",
    ),
    "Nobody moves": ("Tidak ada yang berpindah posisi", "لا يتغير أي مركز"),
    "The player who ran out of time, if one did.": (
        "Pemain yang kehabisan waktu, jika ada.",
        "اللاعب الذي نفد وقته، إن وُجد.",
    ),
    "removed after too many timeouts": ("dikeluarkan setelah terlalu sering kehabisan waktu", "أُزيل بعد تكرار نفاد الوقت"),
    "climbed": ("naik", "صعد"),
    "You joined the ladder at the bottom.": ("Anda bergabung di dasar tangga.", "انضممت إلى السلم في أسفله."),
    "You left the ladder; your ladder games were resigned.": (
        "Anda keluar dari tangga; permainan tangga Anda dinyatakan menyerah.",
        "غادرت السلم؛ واستُسلمت مبارياتك في السلم.",
    ),
    "The ladder game has started.": ("Permainan tangga sudah dimulai.", "بدأت مباراة السلم."),
    "You may challenge up to %(places)s places above you; a challenge starts a rated game at once.": (
        "Anda boleh menantang hingga %(places)s posisi di atas Anda; tantangan langsung memulai permainan berperingkat.",
        "يمكنك التحدي حتى %(places)s من المراكز فوقك؛ ويبدأ التحدي مباراة مصنّفة فورًا.",
    ),
    "You are number %(position)s.": ("Anda berada di nomor %(position)s.", "أنت في المركز %(position)s."),
    "Leave the ladder (resigns your ladder games)": (
        "Keluar dari tangga (menyerah di permainan tangga Anda)",
        "غادر السلم (تستسلم في مبارياتك في السلم)",
    ),
    "Join at the bottom": ("Bergabung di dasar", "انضم في الأسفل"),
    "Log in to join": ("Masuk untuk bergabung", "سجّل الدخول للانضمام"),
    "Players you can challenge": ("Pemain yang bisa Anda tantang", "لاعبون يمكنك تحدّيهم"),
    "Nobody right now.": ("Tidak ada saat ini.", "لا أحد حاليًا."),
    "Positions": ("Posisi", "المراكز"),
    "Nobody has joined yet.": ("Belum ada yang bergabung.", "لم ينضم أحد بعد."),
    "Games in progress": ("Permainan yang berlangsung", "المباريات الجارية"),
    "%(challenger)s (#%(cp)s) challenges %(defender)s (#%(dp)s)": (
        "%(challenger)s (#%(cp)s) menantang %(defender)s (#%(dp)s)",
        "%(challenger)s (#%(cp)s) يتحدى %(defender)s (#%(dp)s)",
    ),
    "No ladder games in progress.": ("Tidak ada permainan tangga yang berlangsung.", "لا توجد مباريات سلم جارية."),
    "Recent changes": ("Perubahan terbaru", "أحدث التغييرات"),
    "%(who)s beat %(other)s and climbed from %(before)s to %(after)s": (
        "%(who)s mengalahkan %(other)s dan naik dari %(before)s ke %(after)s",
        "هزم %(who)s %(other)s وصعد من %(before)s إلى %(after)s",
    ),
    "%(who)s joined at %(after)s": ("%(who)s bergabung di %(after)s", "انضم %(who)s في المركز %(after)s"),
    "%(who)s left from %(before)s": ("%(who)s keluar dari %(before)s", "غادر %(who)s من المركز %(before)s"),
    "%(who)s was removed from %(before)s after too many timeouts": (
        "%(who)s dikeluarkan dari %(before)s setelah terlalu sering kehabisan waktu",
        "أُزيل %(who)s من المركز %(before)s بعد تكرار نفاد الوقت",
    ),
    "No changes yet.": ("Belum ada perubahan.", "لا توجد تغييرات بعد."),
    "Join at the bottom, challenge players a few places above you, and take their place when you win.": (
        "Bergabunglah di dasar, tantang pemain beberapa posisi di atas Anda, dan ambil posisinya saat Anda menang.",
        "انضم في الأسفل، وتحدَّ اللاعبين الذين يعلونك ببضعة مراكز، وخذ مكانهم عندما تفوز.",
    ),
    "closed": ("ditutup", "مغلق"),
    "No ladders yet.": ("Belum ada tangga.", "لا توجد سلالم بعد."),
}
