// Board Banker line reader: an Arduino (Uno, Nano) or ESP32 with an MFRC522
// module, printing one line per card tap on the USB serial port:
//
//   Card UID: 04 A3 2B 1C
//
// at 115200 baud. Board Banker reads it with `--protocol line`
// (hardware/line.py), which ignores every other line (this banner, debug
// output) and the partial line that opening the port causes.
//
// Needs the "MFRC522" library by GithubCommunity (miguelbalboa/rfid) from the
// Arduino Library Manager. Wiring: see README.md beside this sketch.

#include <SPI.h>
#include <MFRC522.h>

#if defined(ESP32)
const uint8_t SS_PIN = 5;    // SDA on the module
const uint8_t RST_PIN = 22;
#else
const uint8_t SS_PIN = 10;   // SDA on the module
const uint8_t RST_PIN = 9;
#endif

MFRC522 rfid(SS_PIN, RST_PIN);

void setup() {
  Serial.begin(115200);
  SPI.begin();
  rfid.PCD_Init();
  Serial.println(F("Board Banker card reader 1.0"));
  Serial.print(F("MFRC522 firmware version: 0x"));
  Serial.println(rfid.PCD_ReadRegister(MFRC522::VersionReg), HEX);
}

void loop() {
  // A card that stays on the reader is halted after its first report, so it is
  // reported once; lifting it and putting it back reports it again.
  if (!rfid.PICC_IsNewCardPresent() || !rfid.PICC_ReadCardSerial()) {
    delay(20);
    return;
  }
  Serial.print(F("Card UID:"));
  for (byte i = 0; i < rfid.uid.size; i++) {
    Serial.print(rfid.uid.uidByte[i] < 0x10 ? " 0" : " ");
    Serial.print(rfid.uid.uidByte[i], HEX);
  }
  Serial.println();
  rfid.PICC_HaltA();
  rfid.PCD_StopCrypto1();
}
