"""Strings of the rules page (templates/games/rules.html) and its links in the site's frame."""

# msgid -> (Indonesian, Arabic).
T = {
    "Rules": ("Aturan", "القواعد"),
    "Fair play": ("Permainan adil", "اللعب النظيف"),
    "On this page": ("Di halaman ini", "في هذه الصفحة"),
    "Time": ("Waktu", "الوقت"),
    "Conduct": ("Perilaku", "السلوك"),
    "Engine help is forbidden in rated games.": (
        "Bantuan mesin dilarang dalam permainan berperingkat.",
        "الاستعانة بالمحركات ممنوعة في المباريات المصنّفة."),
    "While a rated game runs, play your own moves: do not ask a bot, an engine, an analysis "
    "program or another person which move to play, and do not let anyone play for you.": (
        "Selama permainan berperingkat berjalan, mainkan langkah Anda sendiri: jangan bertanya "
        "kepada bot, mesin, program analisis, atau orang lain langkah mana yang harus dimainkan, "
        "dan jangan biarkan siapa pun bermain untuk Anda.",
        "ما دامت المباراة المصنّفة جارية فالعب نقلاتك بنفسك: لا تسأل روبوتًا أو محركًا أو برنامج "
        "تحليل أو شخصًا آخر عن النقلة التي تلعبها، ولا تدع أحدًا يلعب عنك."),
    "Unrated games and games against the site's bots are yours to study as you like.": (
        "Permainan tanpa peringkat dan permainan melawan bot situs boleh Anda pelajari sesuka hati.",
        "المباريات غير المصنّفة والمباريات ضد روبوتات الموقع لك أن تدرسها كما تشاء."),
    "Staff may compare the moves of finished rated games with the choices of the site's "
    "strongest bot, beside the same figure for other players of similar rating. This is a "
    "signal for a person to look at, never an automatic ban. Report a game or a player you "
    "suspect from the game page or the player's page.": (
        "Staf dapat membandingkan langkah dalam permainan berperingkat yang telah selesai dengan "
        "pilihan bot terkuat situs, di samping angka yang sama untuk pemain lain dengan peringkat "
        "serupa. Ini adalah tanda untuk diperiksa oleh manusia, tidak pernah larangan otomatis. "
        "Laporkan permainan atau pemain yang Anda curigai dari halaman permainan atau halaman "
        "pemain.",
        "قد يقارن فريق الإدارة نقلات المباريات المصنّفة المنتهية باختيارات أقوى روبوت في الموقع، "
        "إلى جانب الرقم نفسه للاعبين آخرين بتصنيف مماثل. هذه إشارة يفحصها إنسان، وليست حظرًا "
        "تلقائيًا أبدًا. أبلغ عن مباراة أو لاعب تشك فيه من صفحة المباراة أو صفحة اللاعب."),
    "Staff may void a game (it then counts for no rating), award it, or suspend an account. A "
    "suspended player loses their running games against people (a game in which they never "
    "moved is aborted instead); their games against bots are aborted, and they leave their "
    "ladders and tournaments. Every staff decision is logged with who took it and why.": (
        "Staf dapat membatalkan permainan (sehingga tidak dihitung untuk peringkat), menetapkan "
        "pemenangnya, atau menangguhkan akun. Pemain yang ditangguhkan kalah dalam permainannya "
        "yang sedang berjalan melawan orang (permainan yang belum pernah ia langkahi dibatalkan); "
        "permainannya melawan bot dibatalkan, dan ia keluar dari tangga serta turnamennya. Setiap "
        "keputusan staf dicatat beserta siapa yang mengambilnya dan alasannya.",
        "قد يُلغي فريق الإدارة مباراة (فلا تُحتسب لأي تصنيف)، أو يمنح نتيجتها، أو يوقف حسابًا. "
        "اللاعب الموقوف يخسر مبارياته الجارية ضد الأشخاص (والمباراة التي لم يلعب فيها أي نقلة "
        "تُلغى بدلًا من ذلك)، وتُلغى مبارياته ضد الروبوتات، ويغادر سلالمه وبطولاته. كل قرار للإدارة "
        "يُسجَّل مع من اتخذه ولماذا."),
    "Each game has a number of days per move. The time runs from the start of your turn; when "
    "it is used up you lose on time. If you never made a move in that game, it is aborted "
    "instead and nobody's rating changes.": (
        "Setiap permainan memiliki jumlah hari per langkah. Waktu berjalan sejak awal giliran "
        "Anda; bila habis, Anda kalah karena waktu. Jika Anda belum pernah melangkah dalam "
        "permainan itu, permainan dibatalkan dan peringkat siapa pun tidak berubah.",
        "لكل مباراة عدد من الأيام لكل نقلة. يجري الوقت من بداية دورك، وإذا نفد خسرت بالوقت. "
        "وإذا لم تلعب أي نقلة في تلك المباراة فإنها تُلغى بدلًا من ذلك ولا يتغير تصنيف أحد."),
    "A vacation stops the clocks of your games (where the game allows it); a deadline that falls "
    "in your night hours moves to the morning. If the site itself was down, every deadline that "
    "fell in the outage is extended by its length.": (
        "Liburan menghentikan jam permainan Anda (bila permainan mengizinkannya); tenggat yang "
        "jatuh pada jam malam Anda bergeser ke pagi. Jika situs sendiri sedang mati, setiap tenggat "
        "yang jatuh dalam gangguan itu diperpanjang sepanjang gangguan tersebut.",
        "الإجازة توقف ساعات مبارياتك (حيث تسمح المباراة بذلك)، والموعد النهائي الذي يقع في ساعات "
        "ليلك ينتقل إلى الصباح. وإذا كان الموقع نفسه متوقفًا، يُمدَّد كل موعد نهائي وقع أثناء "
        "التوقف بقدر مدته."),
    "Be courteous. Do not stall a lost game, abuse other players or create more than one account. "
    "You can block a player: they can no longer challenge you or write to you, and games already "
    "running go on.": (
        "Bersikaplah sopan. Jangan mengulur permainan yang sudah kalah, melecehkan pemain lain, "
        "atau membuat lebih dari satu akun. Anda dapat memblokir pemain: ia tidak bisa lagi "
        "menantang atau menulis kepada Anda, dan permainan yang sudah berjalan tetap berlanjut.",
        "كن مهذبًا. لا تماطل في مباراة خاسرة، ولا تُسئ إلى اللاعبين الآخرين، ولا تنشئ أكثر من "
        "حساب واحد. يمكنك حظر لاعب: فلا يعود قادرًا على تحديك أو مراسلتك، وتستمر المباريات "
        "الجارية."),
    "Each player has a master and four students on a 5 by 5 board, and two move cards; a fifth "
    "card lies aside. On your turn, move one of your pieces by a pattern of one of your cards "
    "(pieces jump; landing on an enemy piece captures it), then exchange the card you used for "
    "the one aside. If you have no legal move, you still give one card.": (
        "Setiap pemain memiliki seorang master dan empat murid di papan 5 kali 5, serta dua kartu "
        "langkah; kartu kelima diletakkan di samping. Pada giliran Anda, gerakkan salah satu bidak "
        "Anda menurut pola salah satu kartu Anda (bidak melompat; mendarat di bidak lawan "
        "memakannya), lalu tukar kartu yang Anda pakai dengan kartu di samping. Jika tidak ada "
        "langkah sah, Anda tetap menyerahkan satu kartu.",
        "لكل لاعب معلّم وأربعة تلاميذ على رقعة 5 في 5، وبطاقتا حركة، وتوضع بطاقة خامسة جانبًا. "
        "في دورك حرّك إحدى قطعك وفق نمط إحدى بطاقتيك (القطع تقفز، والنزول على قطعة للخصم "
        "يأسرها)، ثم استبدل البطاقة التي استعملتها بالبطاقة الجانبية. وإن لم تكن لديك نقلة "
        "قانونية فإنك تعطي بطاقة مع ذلك."),
    "You win by capturing the enemy master or by moving your master onto the square where the "
    "enemy master started. On this site the same position occurring for the third time is a "
    "draw, and the players may agree to a draw.": (
        "Anda menang dengan memakan master lawan atau dengan memindahkan master Anda ke petak "
        "tempat master lawan memulai. Di situs ini, posisi yang sama yang terjadi untuk ketiga "
        "kalinya adalah remis, dan para pemain dapat sepakat remis.",
        "تفوز بأسر معلّم الخصم أو بنقل معلّمك إلى المربع الذي بدأ منه معلّم الخصم. في هذا الموقع "
        "يكون تكرار الوضع نفسه للمرة الثالثة تعادلًا، ويمكن للاعبين الاتفاق على التعادل."),
    "Two tribes place warrior tiles on a 5 by 5 map of shrines and crystals. In each round the "
    "active player picks one pair of tiles from the stream, and both players place one warrior. "
    "A warrior with no free space beside it is surrounded: it survives only if its strength "
    "(claws plus energy crystals and bonuses) is at least that of the enemies around it, else it "
    "dies.": (
        "Dua suku menempatkan ubin prajurit di peta 5 kali 5 berisi kuil dan kristal. Pada setiap "
        "ronde, pemain aktif memilih satu pasang ubin dari aliran, dan kedua pemain menempatkan "
        "satu prajurit. Prajurit tanpa ruang kosong di sampingnya terkepung: ia bertahan hanya "
        "jika kekuatannya (cakar ditambah kristal energi dan bonus) paling sedikit sama dengan "
        "musuh di sekitarnya; jika tidak, ia mati.",
        "تضع قبيلتان بلاطات المحاربين على خريطة 5 في 5 فيها أضرحة وبلورات. في كل جولة يختار "
        "اللاعب النشط زوجًا من البلاطات من التيار، ويضع كل لاعب محاربًا واحدًا. المحارب الذي لا "
        "يجاوره مكان متاح يكون محاصرًا: ينجو فقط إن كانت قوته (المخالب مع بلورات الطاقة "
        "والمكافآت) لا تقل عن قوة الأعداء حوله، وإلا مات."),
    "Entering a shrine takes its relic and draws crystals from the bag. The game ends after the "
    "round in which the sixth warrior dies, at most one free space remains, or every warrior is "
    "on the map. Surviving warriors' sanity, their spirit crystals and the relics score.": (
        "Memasuki kuil mengambil reliknya dan menarik kristal dari kantong. Permainan berakhir "
        "setelah ronde ketika prajurit keenam mati, tersisa paling banyak satu ruang kosong, atau "
        "semua prajurit sudah berada di peta. Kewarasan prajurit yang bertahan, kristal roh "
        "mereka, dan relik memberi nilai.",
        "دخول الضريح يأخذ أثره ويسحب بلورات من الكيس. تنتهي المباراة بعد الجولة التي يموت فيها "
        "المحارب السادس، أو لا يبقى فيها إلا مكان متاح واحد على الأكثر، أو يصبح فيها كل المحاربين "
        "على الخريطة. تُحتسب النقاط من عقل المحاربين الناجين وبلورات الروح عليهم والآثار."),
    "The order of the face-down piles and of the bag is hidden from both players and from the "
    "bots until the game ends; the seed that fixed it is committed at the start and revealed at "
    "the end, so anyone can check it.": (
        "Urutan tumpukan tertutup dan isi kantong disembunyikan dari kedua pemain dan dari bot "
        "sampai permainan berakhir; benih yang menentukannya diikat di awal dan diungkap di akhir, "
        "sehingga siapa pun dapat memeriksanya.",
        "ترتيب الأكوام المقلوبة وترتيب الكيس مخفيان عن اللاعبين وعن الروبوتات حتى نهاية "
        "المباراة، والبذرة التي حددته يُلتزم بها في البداية وتُكشف في النهاية، فيستطيع أي أحد "
        "التحقق منها."),
}
