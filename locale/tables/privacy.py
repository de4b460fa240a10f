"""Strings of the privacy app (account export and deletion), templates/privacy and the
links on the profile page."""

# msgid -> (Indonesian, Arabic)
T = {
    "Privacy": ("Privasi", "الخصوصية"),
    "The password is wrong: the account was not deleted.": (
        "Kata sandinya salah: akun tidak dihapus.", "كلمة المرور خاطئة: لم يُحذف الحساب."),
    "This account is already deleted.": ("Akun ini sudah dihapus.", "هذا الحساب محذوف بالفعل."),
    "Your password": ("Kata sandi Anda", "كلمة مرورك"),
    "Type your password again to confirm.": (
        "Ketik kata sandi Anda sekali lagi untuk mengonfirmasi.", "اكتب كلمة مرورك مرة أخرى للتأكيد."),
    "Your account is deleted. Your games stay, under the name deleted player.": (
        "Akun Anda sudah dihapus. Permainan Anda tetap ada, atas nama pemain terhapus.",
        "حُذف حسابك. تبقى مبارياتك باسم لاعب محذوف."),
    "Delete your account": ("Hapus akun Anda", "احذف حسابك"),
    "Deleting your account cannot be undone. What happens:": (
        "Penghapusan akun tidak dapat dibatalkan. Yang terjadi:", "لا يمكن التراجع عن حذف حسابك. ما يحدث:"),
    "You resign every game you are playing: your opponents win them.": (
        "Anda menyerah di setiap permainan yang sedang Anda mainkan: lawan Anda memenangkannya.",
        "تستسلم في كل مباراة تلعبها: يفوز بها خصومك."),
    "Your open challenges are cancelled; you leave your ladders and tournaments.": (
        "Tantangan terbuka Anda dibatalkan; Anda keluar dari tangga dan turnamen Anda.",
        "تُلغى تحدياتك المفتوحة، وتغادر سلالمك وبطولاتك."),
    "Your name, email address, preferences, blocks, API tokens and sessions are removed.": (
        "Nama, alamat email, preferensi, blokir, token API, dan sesi Anda dihapus.",
        "يُزال اسمك وعنوان بريدك الإلكتروني وتفضيلاتك وحظرك ورموز API وجلساتك."),
    "Your games stay, so that they can still be replayed; they show you as deleted player.": (
        "Permainan Anda tetap ada agar masih bisa diputar ulang; di sana Anda tampil sebagai pemain terhapus.",
        "تبقى مبارياتك حتى يمكن إعادة عرضها، وتظهر فيها باسم لاعب محذوف."),
    "Download your data first (JSON)": ("Unduh data Anda terlebih dahulu (JSON)", "نزّل بياناتك أولًا (JSON)"),
    "Delete my account for good": ("Hapus akun saya untuk selamanya", "احذف حسابي نهائيًا"),
    "Keep my account": ("Pertahankan akun saya", "أبقِ على حسابي"),
    "Your data": ("Data Anda", "بياناتك"),
    "Download your data (JSON)": ("Unduh data Anda (JSON)", "نزّل بياناتك (JSON)"),
}
